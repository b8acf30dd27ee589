import { secretProblems } from '@spam-check/service-kit';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_GATEWAY_CLIENT, DEMO_CLIENT, DEMO_USER } from '../../../services/auth/src/config';
import { parseEnvFile, readText } from './files';

interface Bootstrap {
  clients?: { secret: string }[];
  users?: { password: string }[];
}

const SECRET_KEY = /(PASSWORD|PASS|SECRET|HASH_KEY)$/;

/** Secrets of a bootstrap file (JSON): client secrets and user passwords. */
function bootstrapSecrets(path: string): string[] {
  const file = JSON.parse(readText(path)) as Bootstrap;
  return [...(file.clients ?? []).map((c) => c.secret), ...(file.users ?? []).map((u) => u.password)];
}

/** Values of `KEY=value` whose key names a secret, and passwords inside URLs. */
function envSecrets(lines: Record<string, string>): string[] {
  return Object.entries(lines).flatMap(([key, value]) => {
    if (SECRET_KEY.test(key)) return value ? [value] : [];
    if (/^[a-z]+:\/\//.test(value)) return [decodeURIComponent(new URL(value).password)].filter(Boolean);
    return [];
  });
}

/** Credentials shown in commands of a Markdown document: `-u client:secret` and `password=...`. */
function documentedSecrets(path: string): string[] {
  const text = readText(path);
  return [
    ...[...text.matchAll(/-u [\w-]+:([\w-]+)/g)].map((match) => match[1]!),
    ...[...text.matchAll(/password=([\w-]+)/g)].map((match) => match[1]!),
  ];
}

function kustomizeSecrets(path: string): string[] {
  const file = parseYaml(readText(path)) as { secretGenerator?: { literals?: string[] }[] };
  const literals = (file.secretGenerator ?? []).flatMap((generator) => generator.literals ?? []);
  return envSecrets(
    Object.fromEntries(
      literals.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    ),
  );
}

/** Every secret this repository shows to its readers, by where it is shown. */
const shown: [where: string, secrets: string[]][] = [
  ['auth embedded defaults', [DEFAULT_GATEWAY_CLIENT.secret, DEMO_CLIENT.secret, DEMO_USER.password]],
  ['deploy/bootstrap.example.json', bootstrapSecrets('deploy/bootstrap.example.json')],
  ['deploy/compose.env.example', envSecrets(parseEnvFile('deploy/compose.env.example'))],
  ['k8s/overlays/dev/bootstrap.json', bootstrapSecrets('k8s/overlays/dev/bootstrap.json')],
  ['k8s/overlays/dev/kustomization.yaml', kustomizeSecrets('k8s/overlays/dev/kustomization.yaml')],
  [
    'k8s/overlays/prod/secrets.example.env',
    envSecrets(parseEnvFile('k8s/overlays/prod/secrets.example.env')),
  ],
  ['README.md', documentedSecrets('README.md')],
  ['docs/operations.md', documentedSecrets('docs/operations.md')],
];

describe('secrets in production (service kit secretProblems)', () => {
  it('finds the secrets the examples and docs show (the scan below is not empty)', () => {
    const all = shown.flatMap(([, secrets]) => secrets);
    expect(all).toEqual(
      expect.arrayContaining(['demo-secret', 'dev-demo-secret', 'dev-gateway-client-secret']),
    );
  });

  it.each(shown)('refuses every secret shown in %s', (where, secrets) => {
    const accepted = secrets.filter(
      (secret) => secretProblems('production', { [where]: secret }).length === 0,
    );
    expect(accepted).toEqual([]);
  });
});
