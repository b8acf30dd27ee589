import { parseArgs } from 'node:util';
import { type CLIENT_GRANTS, DEFAULT_CLIENT_GRANTS } from '@spam-check/contracts';
import { clientSecretSchema, createAccounts, generateSecret } from '../../domain/accounts';
import type { AuthStore } from '../../domain/store';
import type { SecretHasher } from '../../domain/secrets';

export const USAGE = `Usage: pnpm --filter @spam-check/auth cli <command>

  client add <id> [--secret S] [--grants password,refresh_token,client_credentials] [--scopes spam:check]
  client list
  client rotate-secret <id> [--secret S]
  client remove <id>
  user add <username> [--password P] [--scopes spam:check,spam:admin]
  user set-password <username> [--password P] [--scopes ...]
  user list
  user remove <username>

A client without --grants gets password,refresh_token; a site's server that acts as itself needs
--grants client_credentials (no user, no refresh token, never spam:admin). A secret or password that is not given is generated and printed once. A user without --scopes may obtain
every scope of its client but spam:admin; set-password without --scopes keeps the user's scopes. Uses REDIS_URL and AUTH_REDIS_PREFIX.
`;

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** Runs one CLI command; returns the exit code. Output goes to `out` (JSON for lists). */
export async function runCli(
  argv: string[],
  deps: { store: AuthStore; hasher: SecretHasher; out: (line: string) => void },
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      secret: { type: 'string' },
      password: { type: 'string' },
      grants: { type: 'string' },
      scopes: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const accounts = createAccounts(deps.store, deps.hasher);
  const [noun, verb, name] = positionals;
  const needName = () => {
    if (!name) throw new UsageError(`${noun} ${verb} needs a name`);
    return name;
  };
  if (values.help || !noun) {
    deps.out(USAGE);
    return values.help ? 0 : 2;
  }
  if (values.secret !== undefined) {
    const given = clientSecretSchema.safeParse(values.secret);
    if (!given.success) throw new UsageError(given.error.issues.map((issue) => issue.message).join('; '));
  }
  switch (`${noun} ${verb}`) {
    case 'client add': {
      const secret = values.secret ?? generateSecret();
      const grants = list(values.grants) ?? [...DEFAULT_CLIENT_GRANTS];
      const change = await accounts.upsertClient({
        id: needName(),
        secret,
        grants: grants as (typeof CLIENT_GRANTS)[number][],
        ...(values.scopes ? { scopes: list(values.scopes) } : {}),
      });
      deps.out(`client ${name} ${change}${values.secret ? '' : `; secret: ${secret}`}`);
      return 0;
    }
    case 'client list':
      deps.out(JSON.stringify(await accounts.listClients(), null, 2));
      return 0;
    case 'client rotate-secret': {
      const secret = await accounts.rotateClientSecret(needName(), values.secret);
      if (!secret) return notFound(deps.out, 'client', name);
      deps.out(`client ${name} secret rotated${values.secret ? '' : `; new secret: ${secret}`}`);
      return 0;
    }
    case 'client remove':
      if (!(await accounts.removeClient(needName()))) return notFound(deps.out, 'client', name);
      deps.out(`client ${name} removed`);
      return 0;
    case 'user add':
    case 'user set-password': {
      const username = needName();
      const existing = await deps.store.getUser(username);
      if (verb === 'set-password' && !existing) return notFound(deps.out, 'user', username);
      const password = values.password ?? generateSecret();
      const scopes = list(values.scopes) ?? existing?.scopes;
      const change = await accounts.upsertUser({ username, password, ...(scopes ? { scopes } : {}) });
      deps.out(`user ${username} ${change}${values.password ? '' : `; password: ${password}`}`);
      return 0;
    }
    case 'user list':
      deps.out(JSON.stringify(await accounts.listUsers(), null, 2));
      return 0;
    case 'user remove':
      if (!(await accounts.removeUser(needName()))) return notFound(deps.out, 'user', name);
      deps.out(`user ${name} removed`);
      return 0;
    default:
      throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  }
}

export class UsageError extends Error {}

function notFound(out: (line: string) => void, kind: string, name: string | undefined): number {
  out(`no ${kind} named ${name}`);
  return 1;
}
