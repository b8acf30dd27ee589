import { readFile } from 'node:fs/promises';
import { ConfigError, secretProblems, type Logger } from '@spam-check/service-kit';
import { ADMIN_SCOPE } from '@spam-check/contracts';
import {
  DEFAULT_GATEWAY_CLIENT,
  DEMO_ADMIN_CLIENT,
  DEMO_ADMIN_USER,
  DEMO_CLIENT,
  DEMO_USER,
  type ServiceConfig,
} from './config';
import { bootstrapSchema, createAccounts, type BootstrapFile } from './domain/accounts';
import { ADMIN_PROXY_SCOPE, INTROSPECT_SCOPE } from './domain/scopes';
import type { AuthStore } from './domain/store';
import type { SecretHasher } from './domain/secrets';

async function readBootstrapFile(path: string): Promise<BootstrapFile> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new ConfigError([`AUTH_BOOTSTRAP_FILE: cannot read ${path}: ${(error as Error).message}`]);
  }
  const parsed = bootstrapSchema.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(
      parsed.error.issues.map((issue) => `AUTH_BOOTSTRAP_FILE ${issue.path.join('.')}: ${issue.message}`),
    );
  return parsed.data;
}

/**
 * Creates clients and users at start: the bootstrap file if there is one; else, outside production, the demo
 * client and user (docs/design.md, Deployment), whichever store is used, so that `pnpm start` works with or
 * without REDIS_URL. The gateway's introspection client comes from GATEWAY_CLIENT_ID/SECRET, defaulting to
 * gateway/gateway-secret outside production. Each default is logged as a warning; production refuses the
 * default secrets wherever they appear. Safe to run at every start (idempotent).
 */
export async function provision(
  config: ServiceConfig,
  store: AuthStore,
  hasher: SecretHasher,
  logger: Logger,
): Promise<void> {
  const accounts = createAccounts(store, hasher);
  const file: BootstrapFile = config.AUTH_BOOTSTRAP_FILE
    ? await readBootstrapFile(config.AUTH_BOOTSTRAP_FILE)
    : { clients: [], users: [] };

  const defaults = config.NODE_ENV !== 'production';
  const demo = defaults && !config.AUTH_BOOTSTRAP_FILE;
  if (demo) {
    logger.warn({ client_id: DEMO_CLIENT.id }, 'creating the demo client with its default secret');
    logger.warn({ username: DEMO_USER.username }, 'creating the demo user with its default password');
    logger.warn(
      { client_id: DEMO_ADMIN_CLIENT.id, username: DEMO_ADMIN_USER.username },
      'creating the demo admin client and user (scope spam:admin) with their default secrets',
    );
    file.clients = [
      { ...DEMO_CLIENT, grants: ['password', 'refresh_token', 'client_credentials'], scopes: ['spam:check'] },
      { ...DEMO_ADMIN_CLIENT, grants: ['password', 'refresh_token'], scopes: [ADMIN_SCOPE] },
    ];
    file.users = [{ ...DEMO_USER }, { ...DEMO_ADMIN_USER, scopes: [ADMIN_SCOPE] }];
  }
  const gatewaySecret =
    config.GATEWAY_CLIENT_SECRET ?? (defaults ? DEFAULT_GATEWAY_CLIENT.secret : undefined);
  if (gatewaySecret) {
    if (!config.GATEWAY_CLIENT_SECRET)
      logger.warn('GATEWAY_CLIENT_SECRET not set: the gateway introspects with the default gateway-secret');
    file.clients = [
      ...(file.clients ?? []),
      {
        id: config.GATEWAY_CLIENT_ID ?? DEFAULT_GATEWAY_CLIENT.id,
        secret: gatewaySecret,
        grants: [],
        scopes: [INTROSPECT_SCOPE, ADMIN_PROXY_SCOPE],
      },
    ];
  }

  const weak = secretProblems(
    config.NODE_ENV,
    Object.fromEntries([
      ...(file.clients ?? []).map((c): [string, string] => [
        `AUTH_BOOTSTRAP_FILE: client ${c.id} secret`,
        c.secret,
      ]),
      ...(file.users ?? []).map((u): [string, string] => [
        `AUTH_BOOTSTRAP_FILE: user ${u.username} password`,
        u.password,
      ]),
    ]),
  );
  if (weak.length > 0) throw new ConfigError(weak);

  const changes = await accounts.apply(file);
  logger.info(changes, 'clients and users provisioned');
  if (demo)
    logger.warn(
      `Demo credentials: client ${DEMO_CLIENT.id} / ${DEMO_CLIENT.secret}, user ${DEMO_USER.username} / ${DEMO_USER.password}; ` +
        `admin: client ${DEMO_ADMIN_CLIENT.id} / ${DEMO_ADMIN_CLIENT.secret}, user ${DEMO_ADMIN_USER.username} / ${DEMO_ADMIN_USER.password}`,
    );
}
