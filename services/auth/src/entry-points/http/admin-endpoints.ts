import { createClientRequestSchema, type AdminClient } from '@spam-check/contracts';
import { AppError, parseBody, requestContext } from '@spam-check/service-kit';
import type { Express, Request } from 'express';
import type { AuthStore, ClientRecord } from '../../domain/store';
import { createAccounts } from '../../domain/accounts';
import type { ClientAuthenticator } from '../../domain/client-authenticator';
import { ADMIN_PROXY_SCOPE, isInternalClient } from '../../domain/scopes';
import type { SecretHasher } from '../../domain/secrets';
import { forGateway } from './client-auth';
import type { TokenMetrics } from './metrics';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

const view = ({ id, grants, scopes }: ClientRecord): AdminClient => ({ id, grants, scopes });

type AdminDeps = {
  store: AuthStore;
  hasher: SecretHasher;
  clients: ClientAuthenticator;
  metrics: TokenMetrics;
  trustedProxyHops: number;
};

/** The client an administrator may see: CLIENT_NOT_FOUND for an unknown id and for the services' own. */
async function existingClient(store: AuthStore, id: string): Promise<ClientRecord> {
  const client = await store.getClient(id);
  if (!client || isInternalClient(client.scopes)) throw new AppError('CLIENT_NOT_FOUND');
  return client;
}

/**
 * The internal side of the admin API (docs/design.md, Administration): clients, for the gateway only. The
 * gateway has checked `spam:admin` on the administrator's token; here the caller must be a client with
 * `auth:admin` (the gateway's). Never a secret hash leaves; a new or rotated secret is shown once, with
 * `no-store`. The services' own clients (an `auth:*` scope) are invisible here, so an administrator cannot
 * lock the gateway out. A store outage is 503.
 */
export function mountAdminEndpoints(app: Express, deps: AdminDeps): void {
  const accounts = createAccounts(deps.store, deps.hasher);

  const handler = forGateway(deps, ADMIN_PROXY_SCOPE);
  const existing = (id: string) => existingClient(deps.store, id);
  const idOf = (req: Request) => String(req.params.id);

  app.get(
    '/admin/clients',
    handler(async (_req, res) => {
      const clients = (await deps.store.listClients())
        .filter((client) => !isInternalClient(client.scopes))
        .map(view)
        .sort((a, b) => a.id.localeCompare(b.id));
      res.set(NO_STORE).json({ clients });
    }),
  );
  app.post(
    '/admin/clients',
    handler(async (req, res) => {
      const input = parseBody(createClientRequestSchema, req.body, requestContext(res).language);
      // The first check spares a hash for an id that is plainly taken; the store's create decides.
      if (await deps.store.getClient(input.id)) throw new AppError('CLIENT_EXISTS');
      const secret = await accounts.createClient(input);
      if (!secret) throw new AppError('CLIENT_EXISTS');
      res
        .status(201)
        .set(NO_STORE)
        .json({ ...view(await existing(input.id)), client_secret: secret });
    }),
  );
  app.get(
    '/admin/clients/:id',
    handler(async (req, res) => {
      res.set(NO_STORE).json(view(await existing(idOf(req))));
    }),
  );
  app.post(
    '/admin/clients/:id/secret',
    handler(async (req, res) => {
      const client = await existing(idOf(req));
      const secret = await accounts.rotateClientSecret(client.id);
      if (!secret) throw new AppError('CLIENT_NOT_FOUND');
      res.set(NO_STORE).json({ ...view(client), client_secret: secret });
    }),
  );
  app.delete(
    '/admin/clients/:id',
    handler(async (req, res) => {
      const client = await existing(idOf(req));
      await accounts.removeClient(client.id);
      res.status(204).end();
    }),
  );
}
