import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import type { K8sObject, Kind, OfKind } from './manifests';

export const ROOT = join(__dirname, '..', '..', '..');

export const readText = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

export const parseYamlFile = <T>(path: string): T => parseYaml(readText(path), { merge: true }) as T;

/** `KEY=value` lines (comments and blank lines skipped), as `kubectl create secret --from-env-file` reads them. */
export function parseEnvFile(path: string): Record<string, string> {
  const entries = readText(path)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
  return Object.fromEntries(entries);
}

/**
 * Renders a kustomization the way `kubectl apply -k` would: `kubectl kustomize` when kubectl is installed,
 * else a standalone `kustomize build`. Neither installed is a failure with a message, never a skip.
 */
export function renderKustomization(dir: string): K8sObject[] {
  const candidates: [string, string[]][] = [
    ['kubectl', ['kustomize', dir]],
    ['kustomize', ['build', dir]],
  ];
  const missing: string[] = [];
  for (const [command, args] of candidates) {
    let output: string;
    try {
      output = execFileSync(command, args, {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        missing.push(command);
        continue;
      }
      throw new Error(`${command} ${args.join(' ')} failed:\n${(error as { stderr?: string }).stderr ?? ''}`);
    }
    return parseAllDocuments(output)
      .map((document) => document.toJS() as K8sObject | null)
      .filter((object): object is K8sObject => object !== null);
  }
  throw new Error(
    `Cannot render ${dir}: neither ${missing.join(' nor ')} is installed. Install kubectl ` +
      '(https://kubernetes.io/docs/tasks/tools/) or kustomize (https://kubectl.docs.kubernetes.io/installation/kustomize/).',
  );
}

export const ofKind = <K extends Kind>(objects: K8sObject[], kind: K): OfKind<K>[] =>
  objects.filter((object): object is OfKind<K> => object.kind === kind);

export function named<K extends Kind>(objects: K8sObject[], kind: K, name: string): OfKind<K> {
  const found = ofKind(objects, kind).find((object) => object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} named ${name} in the rendered manifests`);
  return found;
}

/** Compose's `${VAR}`, `${VAR:-default}`, `${VAR-default}` and `$$`, against an empty environment (the defaults). */
export function interpolate(value: string, env: Record<string, string> = {}): string {
  const pattern = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g;
  return value.replace(pattern, (match: string, name?: string, op?: string, arg?: string): string => {
    if (match === '$$' || name === undefined) return '$';
    const set = env[name];
    if (op === ':-') return set ? set : (arg ?? '');
    if (op === '-') return set ?? arg ?? '';
    // `:?` also refuses an empty value, `?` only an unset one (as compose does).
    if ((op === ':?' && !set) || (op === '?' && set === undefined))
      throw new Error(`compose requires ${name}: ${arg ?? ''}`);
    return set ?? '';
  });
}
