import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function is, short: the file from the repository's `services/` or `packages/`, or the package. */
function whereOf(url: string): string {
  const local = /\/(services|packages)\/(.+)$/.exec(url.replace(/^file:\/\//, ''));
  if (local && !local[2]!.includes('node_modules')) return `${local[1]}/${local[2]}`;
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  return url === '' ? '(native)' : url.replace(/^node:/, 'node:');
}

/** A span of the monotonic clock in microseconds (`process.hrtime.bigint() / 1000n`), as a profile counts time. */
export interface Window {
  from: number;
  to: number;
}

/**
 * The functions with the most self time in the `.cpuprofile` files of `directory` (`node --cpu-prof`), summed
 * over the files, counting only the samples taken within `window` (the profile's clock is the monotonic
 * clock, as `process.hrtime` is) and not idle: each sample's time goes to the function running when it was
 * taken.
 */
export function topSelfTime(
  directory: string,
  window: Window,
  count = 10,
): { name: string; ms: number; share: number }[] {
  const totals = new Map<string, number>();
  let all = 0;
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(directory, file), 'utf8')) as Profile;
    const names = new Map(
      profile.nodes.map(({ id, callFrame: frame }) => [
        id,
        `${frame.functionName || '(anonymous)'} ${whereOf(frame.url)}`,
      ]),
    );
    let at = profile.startTime;
    profile.samples.forEach((node, index) => {
      const delta = profile.timeDeltas[index] ?? 0;
      at += delta;
      const name = names.get(node) ?? '?';
      if (at < window.from || at > window.to || name.startsWith('(idle)')) return;
      const ms = delta / 1000;
      totals.set(name, (totals.get(name) ?? 0) + ms);
      all += ms;
    });
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => ({ name, ms, share: all > 0 ? ms / all : 0 }));
}
