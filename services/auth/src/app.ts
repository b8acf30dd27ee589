import { createServiceApp, postRoute, type ServiceApp, type ServiceBase } from '@spam-check/service-kit';
import type { ServiceConfig } from './config';
import type { AuthStore } from './domain/store';
import { akismetKeys } from './domain/akismet-keys';
import { createAttemptGuard } from './domain/attempt-guard';
import { createClientAuthenticator } from './domain/client-authenticator';
import type { SecretHasher } from './domain/secrets';
import { createTokenService } from './domain/token-service';
import { mountAdminEndpoints } from './entry-points/http/admin-endpoints';
import { mountAkismetKeyEndpoints } from './entry-points/http/akismet-endpoints';
import { formBody } from './entry-points/http/form-body';
import { introspectRoute, revokeEndpoint } from './entry-points/http/introspect-endpoint';
import { createTokenMetrics } from './entry-points/http/metrics';
import { createPasswordGrant } from './entry-points/http/oauth-server';
import { tokenEndpoint } from './entry-points/http/token-endpoint';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  store: AuthStore;
  hasher: SecretHasher;
}

export function createApp(deps: AppDeps): ServiceApp {
  const { config, store, hasher } = deps;
  const lifetimes = {
    accessSeconds: config.AUTH_ACCESS_TOKEN_LIFETIME_SECONDS,
    refreshSeconds: config.AUTH_REFRESH_TOKEN_LIFETIME_SECONDS,
  };
  const guard = createAttemptGuard(store, {
    maxFailuresPerUser: config.AUTH_LOGIN_MAX_FAILURES_PER_USER,
    maxFailuresPerClient: config.AUTH_CLIENT_MAX_FAILURES,
    maxFailuresPerIp: config.AUTH_LOGIN_MAX_FAILURES_PER_IP,
    windowSeconds: config.AUTH_LOGIN_FAILURE_WINDOW_SECONDS,
  });
  const clients = createClientAuthenticator(store, hasher, guard, {
    cacheSeconds: config.AUTH_CLIENT_AUTH_CACHE_SECONDS,
    trustSeconds: config.AUTH_LOGIN_FAILURE_WINDOW_SECONDS,
  });
  const tokens = createTokenService(store, lifetimes);
  const passwordGrant = createPasswordGrant({ store, hasher, tokens, lifetimes });
  const metrics = createTokenMetrics(deps.metrics);
  const form = formBody(config.MAX_BODY_BYTES);
  // The brute-force counters per IP believe only the last AUTH_TRUSTED_PROXY_HOPS X-Forwarded-For entries
  // (those appended by our own proxies, the gateway); anything a client wrote before them is ignored.
  const trustedProxyHops = config.AUTH_TRUSTED_PROXY_HOPS;

  return createServiceApp({
    ...deps,
    // Introspection is called by the gateway for every token it has not cached.
    hotRoutes: (router) => {
      postRoute(
        router,
        '/oauth/introspect',
        introspectRoute({ clients, tokens, metrics, trustedProxyHops, maxBodyBytes: config.MAX_BODY_BYTES }),
      );
    },
    // Form-encoded OAuth endpoints, mounted before the kit's JSON-only body parser.
    beforeBodyParser: (router) => {
      postRoute(
        router,
        '/oauth/token',
        form,
        tokenEndpoint({ clients, guard, passwordGrant, tokens, store, lifetimes, metrics, trustedProxyHops }),
      );
      postRoute(
        router,
        '/oauth/revoke',
        form,
        revokeEndpoint({ clients, tokens, metrics, trustedProxyHops }),
      );
    },
    routes: (app) => {
      mountAdminEndpoints(app, { store, hasher, clients, metrics, trustedProxyHops });
      const keys = akismetKeys(store, guard);
      mountAkismetKeyEndpoints(app, { store, keys, clients, metrics, trustedProxyHops });
    },
  });
}
