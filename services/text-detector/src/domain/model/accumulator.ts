/**
 * Counting: a small open-addressing map from bucket index to a Float32 value that remembers insertion
 * order. The scratch space of one text stays in the CPU cache, unlike arrays of 2^bits entries (the cost of
 * a check was mostly cache misses on those).
 */
export class Accumulator {
  private readonly keys: Int32Array;
  readonly values: Float32Array;
  /** Slots in insertion order. */
  readonly order: Int32Array;
  count = 0;
  private readonly shift: number;
  private readonly slotMask: number;

  constructor(capacityBits: number) {
    this.keys = new Int32Array(1 << capacityBits).fill(-1);
    this.values = new Float32Array(1 << capacityBits);
    this.order = new Int32Array(1 << (capacityBits - 1));
    this.shift = 32 - capacityBits;
    this.slotMask = (1 << capacityBits) - 1;
  }

  /** The slot of a bucket index, created (value 0) when absent. */
  slot(index: number): number {
    let slot = Math.imul(index, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const key = this.keys[slot] as number;
      if (key === index) return slot;
      if (key === -1) {
        this.keys[slot] = index;
        this.order[this.count++] = slot;
        return slot;
      }
      slot = (slot + 1) & this.slotMask;
    }
  }

  add(index: number, value: number): void {
    const slot = this.slot(index);
    this.values[slot] = (this.values[slot] as number) + value;
  }

  keyAt(slot: number): number {
    return this.keys[slot] as number;
  }

  clear(): void {
    for (let k = 0; k < this.count; k++) {
      const slot = this.order[k] as number;
      this.keys[slot] = -1;
      this.values[slot] = 0;
    }
    this.count = 0;
  }
}
