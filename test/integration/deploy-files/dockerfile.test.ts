import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { baseImage, effectiveInstructions, envOf, execForm, parseDockerfile } from './dockerfile';
import { ROOT, readText } from './files';
import { SERVICES, environmentProblems, knownVariables } from './services';

// No Docker engine runs here: the Dockerfile is read as text and held to what the images must be.
describe('the Dockerfile', () => {
  const { stages } = parseDockerfile();
  const stageNames = stages.map((stage) => stage.name);

  it('needs no frontend image: no `# syntax=` line (the engine’s built-in frontend builds it)', () => {
    expect(readText('Dockerfile')).not.toMatch(/^#\s*syntax\s*=/im);
  });

  it('builds every stage on a pinned Node 22 slim image', () => {
    expect(stages.length).toBeGreaterThanOrEqual(SERVICES.length + 1);
    for (const stage of stages)
      expect(baseImage(stages, stage.name)).toMatch(/^node:22\.\d+\.\d+-(\w+-)?slim$/);
  });

  it('installs from the lockfile, builds, and deploys each service with its production dependencies only', () => {
    const build = stages.find((stage) => stage.instructions.some(({ args }) => /pnpm .*deploy/.test(args)));
    expect(build).toBeDefined();
    const runs = build!.instructions.filter(({ keyword }) => keyword === 'RUN').map(({ args }) => args);
    expect(runs.some((run) => /corepack enable/.test(run))).toBe(true);
    expect(runs.some((run) => /pnpm install .*--frozen-lockfile/.test(run))).toBe(true);
    expect(runs.some((run) => /pnpm -r build|pnpm .*--filter(-prod)? .* build/.test(run))).toBe(true);
    const deploy = runs.find((run) => /pnpm .*deploy/.test(run))!;
    expect(deploy).toMatch(/--prod/);
    // pnpm 10 refuses `deploy` unless workspace packages are injected (or --legacy is given).
    expect(deploy).toMatch(/inject-workspace-packages=true|--legacy/);
    for (const service of SERVICES) expect(deploy).toContain(service.name);
  });

  describe.each(SERVICES)('the $name target', (service) => {
    const instructions = stageNames.includes(service.name) ? effectiveInstructions(stages, service.name) : [];
    const last = (keyword: string) => instructions.filter((i) => i.keyword === keyword).at(-1);

    it('exists and copies only that service’s deployed folder', () => {
      expect(stageNames).toContain(service.name);
      const copies = instructions.filter(({ keyword }) => keyword === 'COPY').map(({ args }) => args);
      expect(copies).toEqual([expect.stringMatching(new RegExp(`--from=\\w+ /out/${service.name} /app$`))]);
    });

    it('runs as a non-root user', () => {
      expect(last('USER')?.args).toMatch(/^(node|[1-9]\d*)(:\S+)?$/);
    });

    it('starts node itself in PID 1 (exec form, no npm or shell)', () => {
      expect(execForm(last('CMD')?.args ?? '')).toEqual(['node', 'dist/main.js']);
      expect(instructions.some(({ keyword }) => keyword === 'ENTRYPOINT')).toBe(false);
    });

    it('health-checks /livez on the port the service listens on, with node (slim images have no curl)', () => {
      const env = envOf(instructions);
      const command = execForm(last('HEALTHCHECK')?.args ?? '');
      expect(command?.[0]).toBe('node');
      expect(command?.join(' ')).toContain('/livez');
      expect(command?.join(' ')).toContain(`process.env.${service.portVariable}`);
      expect(env[service.portVariable]).toBe(String(service.defaultPort));
      expect(last('EXPOSE')?.args).toBe(String(service.defaultPort));
    });

    it('sets only variables the service reads, and they load as its configuration', () => {
      const env = envOf(instructions);
      expect(Object.keys(env).filter((key) => !knownVariables(service).includes(key))).toEqual([]);
      expect(env.NODE_ENV).toBe('production');
      // The image alone is production mode: it must refuse to start without its dependencies, not crash
      // on a variable the code no longer knows. Only the schema checks apply here.
      const problems = environmentProblems(service, env, 'Dockerfile').filter((p) => !/refuses/.test(p));
      expect(problems).toEqual([]);
    });
  });

  it('ships the text detector’s model: the package copies everything or lists model/ in "files"', () => {
    const manifest = JSON.parse(readText('services/text-detector/package.json')) as { files?: string[] };
    if (manifest.files) expect(manifest.files.some((entry) => /^(\.\/)?model\/?/.test(entry))).toBe(true);
    expect(existsSync(join(ROOT, 'services/text-detector/model'))).toBe(true);
    expect(dockerIgnored('services/text-detector/model/model.json')).toBe(false);
  });
});

describe('Lua scripts', () => {
  // `pnpm deploy` copies a package's `files` (its dist/); a script that stays in src/ is missing in the image.
  const packages = ['packages', 'services'].flatMap((dir) =>
    readdirSync(join(ROOT, dir)).map((name) => `${dir}/${name}`),
  );
  const scripts = packages.flatMap((pkg) =>
    existsSync(join(ROOT, pkg, 'src'))
      ? readdirSync(join(ROOT, pkg, 'src'), { recursive: true, encoding: 'utf8' })
          .filter((file) => file.endsWith('.lua'))
          .map((file) => ({ pkg, folder: dirname(file) === '.' ? '' : `${dirname(file)}/` }))
      : [],
  );

  it('are found at all (the store of the client maps, the rate limit and auth keep theirs in .lua files)', () => {
    expect(scripts.map(({ pkg }) => pkg)).toEqual(
      expect.arrayContaining(['packages/client-state', 'services/auth', 'services/gateway']),
    );
  });

  it('when a package keeps one beside its code, its build copies it beside the compiled file in dist/', () => {
    for (const { pkg, folder } of scripts) {
      const build = (JSON.parse(readText(`${pkg}/package.json`)) as { scripts: { build: string } }).scripts
        .build;
      expect(build).toContain(`cp src/${folder}*.lua dist/${folder}`);
      // pnpm appends the Dockerfile's `build --noCheck` to the script: tsc must come last.
      expect(build).toMatch(/tsc -p tsconfig\.build\.json$/);
    }
  });
});

describe('.dockerignore', () => {
  it.each([
    'node_modules/x',
    'services/gateway/node_modules/x',
    'services/gateway/dist/main.js',
    '.git/HEAD',
    '.env',
    // The operator's bootstrap file (where the docs put it): secrets, and a rebuild of everything at each edit.
    'bootstrap.json',
    // Documentation: a README change would rebuild every image.
    'services/text-detector/README.md',
  ])('keeps %s out of the build context', (path) => expect(dockerIgnored(path)).toBe(true));

  it.each([
    'package.json',
    'pnpm-lock.yaml',
    'pnpm-workspace.yaml',
    '.npmrc',
    'tsconfig.base.json',
    'packages/service-kit/src/index.ts',
    'services/gateway/src/main.ts',
    'services/gateway/package.json',
  ])('sends %s, which the build needs', (path) => expect(dockerIgnored(path)).toBe(false));
});

/** .dockerignore semantics for the patterns used here: `**`, `*`, a leading `!` re-includes, last match wins. */
function dockerIgnored(path: string): boolean {
  let ignored = false;
  for (const raw of readText('.dockerignore').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    const pattern = (negated ? line.slice(1) : line).replace(/^\/|\/$/g, '');
    const source = pattern
      .split('/')
      .map((part) =>
        part === '**' ? '(?:.*/)?' : `${part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}/`,
      )
      .join('');
    // A pattern matches a path or any of its parent folders.
    if (new RegExp(`^${source}`).test(`${path}/`)) ignored = !negated;
  }
  return ignored;
}
