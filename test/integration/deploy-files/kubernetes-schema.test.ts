import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as models from 'kubernetes-models';
import { ROOT, readText, renderKustomization } from './files';
import type { K8sObject } from './manifests';
import { referenceProblems } from './references';

/** The Kubernetes version whose OpenAPI schema kubernetes-models (4.5) carries; every object is checked against it. */
const KUBERNETES_SCHEMA = '1.27';

interface Model {
  validate(): void;
}

type Constructor = new (data: unknown) => Model;
type Group = Record<string, Record<string, Constructor | undefined> | undefined>;

/** kubernetes-models' class for an apiVersion and kind: `networking.k8s.io/v1` is `networkingK8sIo.v1`. */
function modelOf(apiVersion: string, kind: string): Constructor | undefined {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const key = group!.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase());
  const groups: Record<string, unknown> = models;
  const versions = (key ? (groups[key] as Group | undefined) : { [version!]: models.v1 }) ?? {};
  return (versions as Group)[version!]?.[kind];
}

/** Problems of an object against the schema; an apiVersion and kind the schema lacks is one, not a pass. */
function schemaProblems(object: K8sObject & { apiVersion?: string }): string[] {
  const where = `${object.kind} ${object.metadata.name}`;
  const model = modelOf(object.apiVersion ?? '', object.kind);
  if (!model)
    return [`${where}: ${object.apiVersion} ${object.kind} is not in Kubernetes ${KUBERNETES_SCHEMA}`];
  // kustomize wraps long base64 values in Secret data; the API server's decoder skips those line breaks.
  const data =
    object.kind === 'Secret' && object.data
      ? { data: Object.fromEntries(Object.entries(object.data).map(([k, v]) => [k, v.replace(/\s+/g, '')])) }
      : {};
  try {
    new model({ ...object, ...data }).validate();
    return [];
  } catch (error) {
    return [`${where}: ${(error as Error).message}`];
  }
}

/** The Secrets docs/operations.md tells the operator to create by hand ("- Secret `name`" lines). */
const OPERATOR_SECRETS = [...readText('docs/operations.md').matchAll(/^- Secret `([\w.-]+)`/gm)].map(
  (m) => m[1]!,
);

function problems(dir: string): string[] {
  const objects = renderKustomization(dir);
  return [
    ...objects.flatMap(schemaProblems),
    ...referenceProblems(objects, { secrets: dir.endsWith('prod') ? OPERATOR_SECRETS : [] }),
  ];
}

describe(`the Kubernetes overlays against the Kubernetes ${KUBERNETES_SCHEMA} schema and their own references`, () => {
  it('docs/operations.md names the Secrets the operator creates for prod', () => {
    expect(OPERATOR_SECRETS.sort()).toEqual(['auth-bootstrap', 'spam-check-secrets', 'spam-check-tls']);
  });

  it.each(['dev', 'prod'])(
    'the %s overlay renders valid objects that find everything they refer to',
    (overlay) => {
      const objects = renderKustomization(`k8s/overlays/${overlay}`);
      expect(objects.length).toBeGreaterThan(20);
      expect(problems(`k8s/overlays/${overlay}`)).toEqual([]);
    },
  );

  // Each line breaks a copy of k8s/ in one place; the checks above must name the break.
  const breaks: [what: string, file: string, from: string | RegExp, to: string, expected: RegExp][] = [
    [
      'a field of the wrong type',
      'base/gateway.yaml',
      /containerPort: 8080/,
      'containerPort: "8080"',
      /must be integer/,
    ],
    [
      'a kind the schema lacks',
      'base/gateway.yaml',
      'apiVersion: autoscaling/v2',
      'apiVersion: autoscaling/v9',
      /is not in Kubernetes/,
    ],
    [
      'a Service selecting no pods',
      'base/auth.yaml',
      /(kind: Service[\s\S]*?selector:\s*\n\s*app.kubernetes.io\/name: )auth/,
      '$1auht',
      /Service auth: its selector matches no pods/,
    ],
    [
      'a probe on an undeclared port',
      'base/email-detector.yaml',
      'httpGet: { path: /readyz, port: http }',
      'httpGet: { path: /readyz, port: htp }',
      /probe of email-detector uses port htp/,
    ],
    [
      'a Secret that nobody creates',
      'base/text-detector.yaml',
      'secretKeyRef: { name: spam-check-secrets, key: AMQP_URL }',
      'secretKeyRef: { name: spam-check-secret, key: AMQP_URL }',
      /Secret spam-check-secret is neither/,
    ],
    [
      'an HPA on a missing Deployment',
      'base/text-detector.yaml',
      /(scaleTargetRef:[\s\S]*?name: )text-detector/,
      '$1text-detectr',
      /targets Deployment text-detectr/,
    ],
    [
      'a PDB selecting no pods',
      'base/gateway.yaml',
      /(kind: PodDisruptionBudget[\s\S]*?app.kubernetes.io\/name: )gateway/,
      '$1gatway',
      /PodDisruptionBudget gateway: its selector matches no pods/,
    ],
    [
      'a NetworkPolicy peer selecting no pods',
      'base/network-policies.yaml',
      /(from:\s*\n\s*- podSelector:\s*\n\s*matchLabels:\s*\n\s*app.kubernetes.io\/name: )gateway/,
      '$1gateways',
      /peer's podSelector matches no pods/,
    ],
  ];

  it.each(breaks)('finds %s in a broken copy', (_what, file, from, to, expected) => {
    const copy = mkdtempSync(join(tmpdir(), 'k8s-broken-'));
    try {
      cpSync(join(ROOT, 'k8s'), copy, { recursive: true });
      const path = join(copy, file);
      const original = readFileSync(path, 'utf8');
      const broken = original.replace(from, to);
      expect(broken).not.toBe(original);
      writeFileSync(path, broken);
      expect(problems(join(copy, 'overlays/prod')).join('\n')).toMatch(expected);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
