import { strongestFeatures } from '../../src/domain/client-feedback';

/**
 * What `strongestFeatures` keeps, by its definition: every feature whose magnitude reaches the count-th
 * largest (all of them when there are no more than count), in order, at most count.
 */
function bySorting(indices: Int32Array, values: Float32Array, count: number) {
  const threshold = Float32Array.from(values, Math.abs).sort()[Math.max(0, values.length - count)] as number;
  const kept = [...indices.keys()].filter((k) => Math.abs(values[k] as number) >= threshold).slice(0, count);
  return { indices: kept.map((k) => indices[k]), values: kept.map((k) => values[k]) };
}

/** A vector of `size` features whose values repeat (ties) and have both signs, from a fixed seed. */
function vectorOf(size: number, seed: number) {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const indices = Int32Array.from({ length: size }, (_, k) => k * 7 + 3);
  const values = Float32Array.from({ length: size }, () => Math.round((next() - 0.5) * 40) / 8);
  return { indices, values };
}

describe('the strongest features of a text', () => {
  it.each([
    [2000, 128],
    [2000, 512],
    [129, 128],
    [600, 1],
    [5, 5],
    [3, 10],
  ])(
    'when a vector of %i features with ties is cut to %i, it keeps what sorting the magnitudes keeps',
    (size, count) => {
      for (let seed = 1; seed <= 20; seed++) {
        const vector = vectorOf(size, seed);
        const strongest = strongestFeatures(vector, count);
        const expected = bySorting(vector.indices, vector.values, count);
        expect([...strongest.indices]).toEqual(expected.indices);
        expect([...strongest.values]).toEqual(expected.values);
      }
    },
  );
});
