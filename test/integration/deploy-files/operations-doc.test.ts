import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT, readText } from './files';

/** Every `.ts` file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

describe('docs/operations.md', () => {
  const doc = readText('docs/operations.md');

  it('names every metric the services register', () => {
    const files = [
      'packages/service-kit/src',
      ...readdirSync(join(ROOT, 'services')).map((s) => `services/${s}/src`),
    ];
    const registered = files
      .flatMap(sources)
      .flatMap((file) => [
        ...readText(file).matchAll(/new (?:Counter|Histogram|Gauge|Summary)\(\{\s*name: '([a-z0-9_:]+)'/g),
      ])
      .map((match) => match[1]!);
    expect(registered).toContain('http_request_duration_seconds');
    expect(registered.filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
  });

  it.each([
    'docker compose up',
    'kubectl apply -k k8s/overlays/dev',
    'kubectl apply -k .',
    'rotate-secret',
    'GATEWAY_CLIENT_SECRET',
    'OPENAI_API_KEY',
  ])('covers %s', (text) => expect(doc).toContain(text));
});
