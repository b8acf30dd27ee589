import { AppError, clientAddress, requestContext } from '@spam-check/service-kit';
import type { Express, Request } from 'express';
import type { AkismetKeys } from '../../domain/akismet-keys';
import type { ClientAuthenticator } from '../../domain/client-authenticator';
import { ADMIN_PROXY_SCOPE, INTROSPECT_SCOPE, isInternalClient } from '../../domain/scopes';
import type { AuthStore } from '../../domain/store';
import { forGateway } from './client-auth';
import type { TokenMetrics } from './metrics';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

interface Deps {
  store: AuthStore;
  keys: AkismetKeys;
  clients: ClientAuthenticator;
  metrics: TokenMetrics;
  trustedProxyHops: number;
}

/**
 * Akismet keys, for the gateway: issued and revoked through the admin API (`auth:admin`), and verified for
 * the Akismet endpoints (`auth:introspect`, as token introspection). The services' own clients get none.
 * Verification counts against the sender's address (the gateway's `X-Forwarded-For`), as client secrets do:
 * 200 `{active, client_id?}`, or 429 with Retry-After over the attempt limits.
 */
export function mountAkismetKeyEndpoints(app: Express, deps: Deps): void {
  const admin = forGateway(deps, ADMIN_PROXY_SCOPE);
  const ownClient = async (req: Request) => {
    const client = await deps.store.getClient(String(req.params.id));
    if (!client || isInternalClient(client.scopes)) throw new AppError('CLIENT_NOT_FOUND');
    return client.id;
  };
  app.post(
    '/admin/clients/:id/akismet-key',
    admin(async (req, res) => {
      const key = await deps.keys.issue(await ownClient(req));
      if (!key) throw new AppError('CLIENT_NOT_FOUND');
      res.status(201).set(NO_STORE).json({ key });
    }),
  );
  app.delete(
    '/admin/clients/:id/akismet-key',
    admin(async (req, res) => {
      if (!(await deps.keys.revoke(await ownClient(req)))) throw new AppError('CLIENT_NOT_FOUND');
      res.status(204).end();
    }),
  );
  app.post(
    '/akismet/verify',
    forGateway(
      deps,
      INTROSPECT_SCOPE,
    )(async (req, res) => {
      const key = (req.body as { key?: unknown } | undefined)?.key;
      if (typeof key !== 'string' || key === '') throw new AppError('VALIDATION_FAILED');
      const ip = clientAddress(req, deps.trustedProxyHops);
      const check = await deps.keys.verify(key, ip);
      if (check.ok && !isInternalClient(check.client.scopes))
        return void res.set(NO_STORE).json({ active: true, client_id: check.client.id });
      if (!check.ok && check.reason === 'throttled') {
        requestContext(res).log.warn({ ip }, 'akismet key checks throttled');
        throw new AppError('RATE_LIMITED', {
          headers: { 'Retry-After': String(check.retryAfterSeconds) },
        });
      }
      res.set(NO_STORE).json({ active: false });
    }),
  );
}
