import { createServiceApp, postRoute, type ServiceBase } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { ServiceConfig } from './config';
import type { AuthStore } from './data-access/store';
import { createClientAuthenticator } from './domain/client-authenticator';
import { createLoginGuard } from './domain/login-guard';
import type { SecretHasher } from './domain/secrets';
import { createTokenService } from './domain/token-service';
import { formBody } from './entry-points/http/form-body';
import { introspectEndpoint, revokeEndpoint } from './entry-points/http/introspect-endpoint';
import { createTokenMetrics } from './entry-points/http/metrics';
import { createOAuthServer } from './entry-points/http/oauth-server';
import { tokenEndpoint } from './entry-points/http/token-endpoint';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  store: AuthStore;
  hasher: SecretHasher;
}

export function createApp(deps: AppDeps): Express {
  const { config, store, hasher } = deps;
  const lifetimes = {
    accessSeconds: config.AUTH_ACCESS_TOKEN_LIFETIME_SECONDS,
    refreshSeconds: config.AUTH_REFRESH_TOKEN_LIFETIME_SECONDS,
  };
  const clients = createClientAuthenticator(store, hasher, config.AUTH_CLIENT_AUTH_CACHE_SECONDS);
  const tokens = createTokenService(store, lifetimes);
  const guard = createLoginGuard(store, {
    maxFailuresPerUser: config.AUTH_LOGIN_MAX_FAILURES_PER_USER,
    maxFailuresPerIp: config.AUTH_LOGIN_MAX_FAILURES_PER_IP,
    windowSeconds: config.AUTH_LOGIN_FAILURE_WINDOW_SECONDS,
  });
  const oauth = createOAuthServer({ store, hasher, clients, tokens, lifetimes });
  const metrics = createTokenMetrics(deps.metrics);
  const form = formBody(config.MAX_BODY_BYTES);

  const app = createServiceApp({
    ...deps,
    // Introspection is called by the gateway for every uncached token: dispatched without the router.
    directRoutes: [
      {
        path: '/oauth/introspect',
        handlers: [
          formBody(config.MAX_BODY_BYTES, { allowJson: true }),
          introspectEndpoint({ clients, tokens, metrics }),
        ],
      },
    ],
    // Form-encoded OAuth endpoints, mounted before the kit's JSON-only body parser.
    beforeBodyParser: (router) => {
      postRoute(router, '/oauth/token', form, tokenEndpoint({ oauth, guard, lifetimes, metrics }));
      postRoute(router, '/oauth/revoke', form, revokeEndpoint({ clients, tokens, metrics }));
    },
    routes: () => undefined,
  });
  // The brute-force counter per IP trusts X-Forwarded-For only from these proxies (the gateway).
  app.set('trust proxy', config.AUTH_TRUST_PROXY);
  return app;
}
