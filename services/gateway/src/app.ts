import type http from 'node:http';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import {
  AppError,
  createServiceApp,
  postRoute,
  type CheckMemory,
  type ServiceApp,
  type ServiceBase,
} from '@spam-check/service-kit';
import type { ServiceConfig } from './config';
import type { AuthAdmin } from './data-access/auth-admin';
import type { ConsoleSessionStore } from '@spam-check/console';
import type { HttpDetector } from './data-access/detector-client';
import type { Upstream } from './data-access/http-post';
import type { TokenIntrospector } from './data-access/introspection';
import type { UsageStore } from './data-access/usage-store';
import type { BatchTransport } from './domain/batch-check';
import type { FailedTokenLimit } from './domain/failed-token-limit';
import type { DetectorTransport } from './domain/hybrid-check';
import type { RateLimitStore } from './domain/rate-limit';
import { ADMIN_PREFIX } from './entry-points/http/admin-routes';
import { mountDocs } from './entry-points/http/docs';
import { languagePrefixRewriter } from './entry-points/http/language-prefix';
import { routeHandlers } from './route-handlers';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  introspector: TokenIntrospector;
  rateLimits: RateLimitStore;
  failedTokens: FailedTokenLimit;
  agents: { auth: Upstream };
  /** The detectors over HTTP (their URLs and keep-alive pools), as the transports below use them too. */
  detectors: { email: HttpDetector; text: HttpDetector };
  /** For the OAuth proxy (http-proxy-middleware takes a `node:http` agent). */
  proxyAgent: http.Agent;
  /** Parallel hybrid checks (HTTP) and step-by-step ones (RPC, or HTTP in embedded mode). */
  transports: { parallel: DetectorTransport; stepByStep: DetectorTransport };
  /** The auth service's client administration (DESIGN.md §6.3). */
  authAdmin: AuthAdmin;
  /** Per-client settings and usage; absent without Redis. */
  settings?: ClientSettingsStore | undefined;
  usage?: UsageStore | undefined;
  /** Hybrid check id → the ids of its parts, per client, for feedback (FEEDBACK_RETENTION_SECONDS). */
  hybrids: CheckMemory;
  /** Batch checks: each detector's `POST /v1/check/batch` over HTTP. */
  batches: BatchTransport;
  /** Where console sessions live: Redis, or memory in embedded mode. */
  consoleSessions: ConsoleSessionStore;
}

/**
 * The public entry. Order per check request: language prefix (before the kit reads the language), bearer
 * token, rate limit, body (mail and text: type and size only, forwarded as bytes; hybrid: parsed and
 * validated), then the detectors. The mail and text checks are kit direct routes (plain `node:http`); the
 * rest of the API is Express. Every route reads its own body (or streams it, or has its own limit); anything
 * else is 404 at the end, before the kit's JSON body parser could answer 415 or 413.
 */
export function createApp(deps: AppDeps): ServiceApp {
  const h = routeHandlers(deps);
  const app = createServiceApp({
    ...deps,
    // The public listener: /readyz and /metrics are on GATEWAY_MANAGEMENT_PORT (see the README).
    probesOnManagementPort: true,
    directRoutes: [h.checks.mail('/api/v1/spam/mail'), h.checks.text('/api/v1/spam/text')],
    beforeBodyParser: (app) => {
      mountDocs(app);
      postRoute(app, '/api/v1/spam/hybrid-check', h.authenticated, h.limited, h.jsonBody, ...h.hybrid);
      postRoute(app, '/api/v1/spam/feedback', h.authenticated, h.limited, h.jsonBody, h.feedback);
      postRoute(app, '/api/v1/spam/mail/batch', h.authenticated, h.batchBody, h.batches.mail);
      postRoute(app, '/api/v1/spam/text/batch', h.authenticated, h.batchBody, h.batches.text);
      postRoute(app, '/oauth/token', h.oauth);
      postRoute(app, '/oauth/revoke', h.oauth);
      app.use(ADMIN_PREFIX, h.admin);
      if (h.console) app.use(h.console);
      app.use((_req, _res, next) => next(new AppError('NOT_FOUND')));
    },
  });
  // Before the kit reads the request's language, and before it picks the route.
  const rewriteLanguagePrefix = languagePrefixRewriter(deps.config.LANGUAGES);
  return (req, res) => {
    rewriteLanguagePrefix(req);
    app(req, res);
  };
}
