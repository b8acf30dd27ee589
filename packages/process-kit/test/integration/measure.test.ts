import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import {
  createPinning,
  freePort,
  median,
  medianBy,
  percentile,
  processCpuSeconds,
  processRssBytes,
  runBenches,
  waitForPort,
} from '@spam-check/process-kit';

/** A Node process that spins on the CPU until killed, or sleeps until killed. */
function child(spin: boolean): ChildProcess {
  const script = spin ? 'for (;;);' : 'setInterval(() => {}, 1000);';
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

describe('medians and percentiles', () => {
  it('when the count is odd, the median is the middle value; when even, the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('when items are picked by a figure, the median item keeps its other figures', () => {
    const rounds = [
      { rps: 300, p99: 9 },
      { rps: 100, p99: 7 },
      { rps: 200, p99: 8 },
    ];
    expect(medianBy(rounds, (round) => round.rps)).toEqual({ rps: 200, p99: 8 });
    expect(medianBy([...rounds, { rps: 400, p99: 1 }], (round) => round.rps).rps).toBe(300);
    expect(() => medianBy([], () => 0)).toThrow('no items');
  });

  it('when a quantile is asked, it is the nearest rank: one below, at and above a boundary', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 0.5)).toBe(51);
    expect(percentile(values, 0.99)).toBe(100);
    expect(percentile(values, 0.989)).toBe(99);
    expect(percentile(values, 1)).toBe(100);
    expect(percentile([], 0.5)).toBeNaN();
    expect(values[0]).toBe(100);
  });
});

describe('ports', () => {
  it('when a free port is asked, a server can listen on it', async () => {
    const port = await freePort();
    const server = createServer().listen(port, '127.0.0.1');
    await once(server, 'listening');
    await new Promise((resolve) => server.close(resolve));
  });

  it('when the port it picks first is taken, it picks another instead of failing', async () => {
    // The first pick is a port this test holds (Math.random decides the pick; the range is 10,000 up to
    // Linux's ephemeral ports, or the OS's choice elsewhere, where this test has nothing to hold).
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const taken = 10_000 + Math.floor(0.5 * (low - 10_000));
    const holder = createServer().listen(taken, '0.0.0.0');
    await Promise.race([once(holder, 'listening'), once(holder, 'error')]).catch(() => undefined);
    const random = jest.spyOn(Math, 'random').mockReturnValueOnce(0.5).mockReturnValueOnce(0.25);
    try {
      const port = await freePort();
      expect(port).not.toBe(taken);
      const server = createServer().listen(port, '0.0.0.0');
      await once(server, 'listening');
      await new Promise((resolve) => server.close(resolve));
    } finally {
      random.mockRestore();
      if (holder.listening) await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('when nothing listens, waitForPort gives up with the port in the message; once a server listens, it resolves', async () => {
    const port = await freePort();
    await expect(waitForPort(port, 300)).rejects.toThrow(`127.0.0.1:${port}`);
    const server = createServer().listen(port, '127.0.0.1');
    await expect(waitForPort(port, 2000)).resolves.toBeUndefined();
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('process CPU and memory from /proc', () => {
  it('when a process spins, its CPU seconds grow and its resident memory is reported', async () => {
    const spinning = child(true);
    try {
      await once(spinning, 'spawn');
      const before = processCpuSeconds(spinning.pid!);
      // How much CPU a second brings depends on the machine's load: wait until it has grown, within a bound.
      const deadline = Date.now() + 20_000;
      while (processCpuSeconds(spinning.pid!) - before <= 0.05 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(processCpuSeconds(spinning.pid!) - before).toBeGreaterThan(0.05);
      expect(processRssBytes(spinning.pid!)).toBeGreaterThan(10 * 2 ** 20);
    } finally {
      await kill(spinning);
    }
  });
});

describe('CPU pinning', () => {
  // Read before any pinning: availableParallelism() counts the CPUs this process may run on.
  const cpus = availableParallelism();
  const everyCpu = `0-${cpus - 1}`;
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  /** The CPUs a process may run on, from `taskset -c -p` ("0,1", "0-3", "2"). */
  const affinity = (pid: number): number[] =>
    execFileSync('taskset', ['-c', '-p', String(pid)], { encoding: 'utf8' })
      .split(': ')[1]!
      .trim()
      .split(',')
      .flatMap((part) => {
        const [from, to = from] = part.split('-').map(Number);
        return range(from!, to!);
      });

  afterEach(() => {
    // pin() also moves this process (the load generator in a bench) off the measured CPU: undo that here.
    if (process.platform === 'linux' && cpus >= 2)
      execFileSync('taskset', ['-a', '-p', '-c', everyCpu, String(process.pid)], { stdio: 'ignore' });
  });

  it('when pinning works, the measured process gets the last CPU alone and this process the others', async () => {
    const sleeping = child(false);
    try {
      await once(sleeping, 'spawn');
      const pinning = createPinning();
      const pinned = pinning.pin(sleeping.pid);
      if (process.platform !== 'linux' || cpus < 2) {
        expect(pinned).toBe(false);
        return;
      }
      expect(pinned).toBe(true);
      expect(affinity(sleeping.pid!)).toEqual([cpus - 1]);
      expect(affinity(process.pid)).toEqual(range(0, cpus - 2));
      expect(pinning.note).toContain(`alone to CPU ${cpus - 1}`);
    } finally {
      await kill(sleeping);
    }
  });

  it('when pinning is off, nothing is pinned and the note says so', async () => {
    const sleeping = child(false);
    try {
      await once(sleeping, 'spawn');
      const pinning = createPinning(false);
      expect(pinning.pin(sleeping.pid)).toBe(false);
      expect(pinning.note).toMatch(/^not pinned/);
      if (process.platform === 'linux') expect(affinity(sleeping.pid!)).toEqual(range(0, cpus - 1));
    } finally {
      await kill(sleeping);
    }
  });
});

describe('bench entry', () => {
  let exitCode: typeof process.exitCode;
  let errors: jest.SpyInstance;
  beforeEach(() => {
    exitCode = process.exitCode;
    errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    process.exitCode = exitCode;
    errors.mockRestore();
  });

  it('when no bench is named, every bench runs in order; a failing one sets exit code 1 and the rest still run', async () => {
    const ran: string[] = [];
    await runBenches(
      {
        first: async () => void ran.push('first'),
        broken: async () => {
          ran.push('broken');
          throw new Error('boom');
        },
        last: async () => void ran.push('last'),
      },
      [],
    );
    expect(ran).toEqual(['first', 'broken', 'last']);
    expect(process.exitCode).toBe(1);
    expect(String(errors.mock.calls[0]?.[0])).toContain('bench broken failed');
  });

  it('when benches are named, only those run; an unknown name runs nothing and lists the known ones', async () => {
    const ran: string[] = [];
    const benches = { a: async () => void ran.push('a'), b: async () => void ran.push('b') };
    await runBenches(benches, ['b']);
    expect(ran).toEqual(['b']);
    expect(process.exitCode).toBe(exitCode);
    await runBenches(benches, ['b', 'c']);
    expect(ran).toEqual(['b']);
    expect(process.exitCode).toBe(1);
    expect(String(errors.mock.calls[0]?.[0])).toContain('this package has: a, b');
  });
});
