import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The floor plan of every service, read from its imports: a check goes from `entry-points/` (adapt input and
 * output) through `domain/` (the decisions, no I/O) to `data-access/` (Redis, DNS, LLM, other services),
 * wired once by the files at the top of `src/` (`main.ts`, `compose.ts`, `app.ts`, `config.ts`, ...). The
 * rules:
 * - `domain/` imports neither `entry-points/` nor `data-access/`: what it needs of them is passed in;
 * - `data-access/` does not import `entry-points/` (it may implement what `domain/` declares);
 * - no file in a tier imports the wiring at the top of `src/`: an import never runs back up. The service's
 *   configuration (`config.ts`) is read by the wiring and the adapters, never by `domain/`, which gets plain
 *   values.
 */

type Tier = 'wiring' | 'config' | 'entry-points' | 'domain' | 'data-access';

const FORBIDDEN: Record<Tier, readonly Tier[]> = {
  wiring: [],
  config: ['wiring', 'entry-points', 'domain', 'data-access'],
  'entry-points': ['wiring'],
  domain: ['wiring', 'config', 'entry-points', 'data-access'],
  'data-access': ['wiring', 'entry-points'],
};

const root = resolve(__dirname, '..', '..');
const services = readdirSync(join(root, 'services'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

function tierOf(src: string, file: string): Tier {
  const [first, second] = relative(src, file).split(sep);
  if (second === undefined) return first === 'config' || first === 'config.ts' ? 'config' : 'wiring';
  if (first === 'entry-points' || first === 'domain' || first === 'data-access') return first;
  throw new Error(`${file} is in src/${first}/, which is no tier`);
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every relative import (static, dynamic, re-export, type-only) of the files under `src`, as file pairs. */
function importsOf(src: string): { from: string; to: string }[] {
  return sourceFiles(src).flatMap((from) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(from, 'utf8'), true, true);
    return importedFiles
      .filter(({ fileName }) => fileName.startsWith('.'))
      .map(({ fileName }) => ({ from, to: resolve(dirname(from), fileName) }));
  });
}

/** The imports that break the rules, as `from -> to` relative to `src`. */
function violations(src: string, imports: readonly { from: string; to: string }[]): string[] {
  return imports
    .filter(
      ({ from, to }) => to.startsWith(src + sep) && FORBIDDEN[tierOf(src, from)].includes(tierOf(src, to)),
    )
    .map(({ from, to }) => `${relative(src, from)} -> ${relative(src, to)}`);
}

describe('the import graph of each service', () => {
  it('finds the services and their imports', () => {
    expect(services).toEqual(expect.arrayContaining(['email-detector', 'text-detector']));
    for (const service of services)
      expect(importsOf(join(root, 'services', service, 'src')).length).toBeGreaterThan(0);
  });

  it.each(services)('when %s is read, no import runs against the tiers', (service) => {
    const src = join(root, 'services', service, 'src');
    expect(violations(src, importsOf(src))).toEqual([]);
  });

  it.each([
    ['domain/check.ts', 'entry-points/http/route.ts'],
    ['domain/check.ts', 'data-access/store.ts'],
    ['domain/check.ts', 'compose.ts'],
    ['domain/check.ts', 'config.ts'],
    ['data-access/store.ts', 'entry-points/amqp/consumer.ts'],
    ['entry-points/http/route.ts', 'app.ts'],
  ])('when %s imports %s, the rules name that import', (from, to) => {
    const src = join(root, 'services', 'example', 'src');
    expect(violations(src, [{ from: join(src, from), to: join(src, to) }])).toEqual([`${from} -> ${to}`]);
  });

  it.each([
    ['entry-points/http/route.ts', 'domain/check.ts'],
    ['entry-points/http/route.ts', 'data-access/store.ts'],
    ['data-access/store.ts', 'domain/ports.ts'],
    ['domain/cascade/stage.ts', 'domain/rules/index.ts'],
    ['compose.ts', 'data-access/store.ts'],
    ['data-access/store.ts', 'config.ts'],
  ])('when %s imports %s, the rules let it pass', (from, to) => {
    const src = join(root, 'services', 'example', 'src');
    expect(violations(src, [{ from: join(src, from), to: join(src, to) }])).toEqual([]);
  });
});
