import type http from 'node:http';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import {
  ADMIN_SCOPE,
  createBatchSchemas,
  createRequestSchemas,
  mailResultSchema,
  textResultSchema,
} from '@spam-check/contracts';
import {
  AppError,
  Counter,
  elapsedMs,
  createServiceApp,
  jsonBodyParser,
  parseBody,
  postRoute,
  requestContext,
  type CheckMemory,
  type RequestContext,
  type ServiceApp,
  type ServiceBase,
} from '@spam-check/service-kit';
import type { RequestHandler, Response } from 'express';
import type { Verdict } from '@spam-check/contracts';
import type { z } from 'zod';
import type { ServiceConfig } from './config';
import type { AuthAdmin } from './data-access/auth-admin';
import { consoleApi } from './data-access/console-api';
import type { ConsoleSessionStore } from './data-access/console-sessions';
import { consoleTokenClient } from './data-access/console-tokens';
import type { TokenIntrospector } from './data-access/introspection';
import type { RateLimitStore } from './domain/rate-limit';
import type { UsageStore } from './data-access/usage-store';
import type { HttpDetector } from './data-access/detector-client';
import type { Upstream } from './data-access/http-post';
import type { Caller } from './domain/authorization';
import type { FailedTokenLimit } from './domain/failed-token-limit';
import type { BatchTransport } from './domain/batch-check';
import type { DetectorTransport } from './domain/hybrid-check';
import { ADMIN_PREFIX, adminRouter } from './entry-points/http/admin-routes';
import { authenticate, bearerAuthentication, callerOf } from './entry-points/http/authenticate';
import { batchCheck } from './entry-points/http/batch-check';
import { detectorCheck } from './entry-points/http/detector-check';
import { mountConsole } from './entry-points/http/console/router';
import { consoleSessions } from './entry-points/http/console/session';
import { mountDocs } from './entry-points/http/docs';
import { feedback } from './entry-points/http/feedback';
import { hybridCheck } from './entry-points/http/hybrid-check';
import { languagePrefixRewriter } from './entry-points/http/language-prefix';
import { oauthProxy } from './entry-points/http/oauth-proxy';
import { clientRateLimit, rateLimit } from './entry-points/http/rate-limit';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  introspector: TokenIntrospector;
  rateLimits: RateLimitStore;
  failedTokens: FailedTokenLimit;
  /** `self`: the console's calls to this gateway's own API. */
  agents: { auth: Upstream; self: Upstream };
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

const CHECK_PATHS = {
  mail: '/api/v1/spam/mail',
  text: '/api/v1/spam/text',
  hybrid: '/api/v1/spam/hybrid-check',
  feedback: '/api/v1/spam/feedback',
  mailBatch: '/api/v1/spam/mail/batch',
  textBatch: '/api/v1/spam/text/batch',
} as const;

function validate(schema: z.ZodType): RequestHandler {
  return (req, res, next) => {
    req.body = parseBody(schema, req.body, requestContext(res).language);
    next();
  };
}

/**
 * The public entry. Order per check request: language prefix (before the kit reads the language), bearer
 * token, rate limit, body (mail and text: type and size only, forwarded as bytes; hybrid: parsed and
 * validated), then the detectors. The mail and text checks are kit direct routes (plain `node:http`); the
 * rest of the API is Express.
 */
export function createApp(deps: AppDeps): ServiceApp {
  const { config } = deps;
  const refusals = new Counter({
    name: 'gateway_auth_refusals_total',
    help: 'Check requests refused by token validation, by problem code',
    labelNames: ['code'] as const,
    registers: [deps.metrics.registry],
  });
  const timeoutMs = config.DETECTOR_TIMEOUT_MS;
  const bearer = (scope?: string) =>
    bearerAuthentication(deps.introspector, deps.failedTokens, refusals, config.TRUSTED_PROXY_HOPS, scope);
  const checkCaller = bearer();
  const limitClient = clientRateLimit(
    deps.rateLimits,
    config.RATE_LIMIT_REQUESTS,
    config.RATE_LIMIT_WINDOW_SECONDS,
  );
  const authenticated = authenticate(checkCaller);
  const authenticatedAdmin = authenticate(bearer(ADMIN_SCOPE));
  const limited = rateLimit(limitClient);
  const { detectors } = deps;
  const count =
    (kind: 'mail' | 'text') =>
    (caller: Caller, context: RequestContext, result: { verdict: Verdict; reasons: { code: string }[] }) =>
      deps.usage?.recordCheck({
        clientId: caller.clientId,
        kind,
        verdict: result.verdict,
        reasons: result.reasons.map((reason) => reason.code),
        durationMs: elapsedMs(context),
      });
  const check = <S extends z.ZodType<{ verdict: Verdict; reasons: { code: string }[] }>>(
    path: string,
    detector: HttpDetector,
    schema: S,
    kind: 'mail' | 'text',
  ) =>
    detectorCheck({
      path,
      detector,
      schema,
      timeoutMs,
      maxBodyBytes: config.MAX_BODY_BYTES,
      authenticate: checkCaller,
      rateLimit: limitClient,
      onResult: count(kind),
    });
  // A batch counts each checked item as one check of its kind, with the item's own (detector) duration.
  const countItems =
    (kind: 'mail' | 'text') =>
    (res: Response, results: { verdict: Verdict; reasons: { code: string }[]; duration_ms: number }[]) => {
      for (const result of results)
        deps.usage?.recordCheck({
          clientId: callerOf(res).clientId,
          kind,
          verdict: result.verdict,
          reasons: result.reasons.map((reason) => reason.code),
          durationMs: result.duration_ms,
        });
    };
  const jsonBody = jsonBodyParser(config.MAX_BODY_BYTES);
  const batchBody = jsonBodyParser(config.MAX_BATCH_BODY_BYTES);
  const batchSchemas = createBatchSchemas(config.limits);
  const batchLimit = {
    store: deps.rateLimits,
    limit: config.RATE_LIMIT_REQUESTS,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
  };

  const app = createServiceApp({
    ...deps,
    // The public listener: /readyz and /metrics are on GATEWAY_MANAGEMENT_PORT (see the README).
    probesOnManagementPort: true,
    directRoutes: [
      check(CHECK_PATHS.mail, detectors.email, mailResultSchema, 'mail'),
      check(CHECK_PATHS.text, detectors.text, textResultSchema, 'text'),
    ],
    // Every route reads its own body (or streams it, or has its own limit); anything else is 404 at the end,
    // before the kit's JSON body parser could answer 415 or 413.
    beforeBodyParser: (app) => {
      mountDocs(app);
      postRoute(
        app,
        CHECK_PATHS.hybrid,
        authenticated,
        limited,
        jsonBody,
        validate(createRequestSchemas(config.limits).hybrid),
        hybridCheck(deps.transports, deps.hybrids, deps.settings, deps.usage),
      );
      postRoute(
        app,
        CHECK_PATHS.feedback,
        authenticated,
        limited,
        jsonBody,
        feedback({ detectors, hybrids: deps.hybrids, usage: deps.usage, limits: config.limits, timeoutMs }),
      );
      // A batch is rate limited by its number of items, so after its body is read (not by `limited`).
      postRoute(
        app,
        CHECK_PATHS.mailBatch,
        authenticated,
        batchBody,
        batchCheck(
          {
            field: 'emails',
            envelope: batchSchemas.mail.envelope,
            item: batchSchemas.mail.item,
            check: (emails, meta) =>
              deps.batches.checkMails(
                emails.map((item) => (typeof item === 'string' ? { email: item } : item)),
                meta,
              ),
            onResults: countItems('mail'),
          },
          batchLimit,
        ),
      );
      postRoute(
        app,
        CHECK_PATHS.textBatch,
        authenticated,
        batchBody,
        batchCheck(
          {
            field: 'items',
            envelope: batchSchemas.text.envelope,
            item: batchSchemas.text.item,
            check: (items, meta) => deps.batches.checkTexts(items, meta),
            onResults: countItems('text'),
          },
          batchLimit,
        ),
      );
      const auth = oauthProxy({
        authUrl: config.AUTH_URL,
        agent: deps.proxyAgent,
        timeoutMs: config.AUTH_TIMEOUT_MS,
        trustedProxyHops: config.TRUSTED_PROXY_HOPS,
      });
      postRoute(app, '/oauth/token', auth);
      postRoute(app, '/oauth/revoke', auth);
      app.use(
        ADMIN_PREFIX,
        adminRouter({
          guards: [authenticatedAdmin, limited],
          authAdmin: deps.authAdmin,
          settings: deps.settings,
          usage: deps.usage,
          maxBodyBytes: config.MAX_BODY_BYTES,
        }),
      );
      const consoleClient = config.console.client;
      if (consoleClient) {
        const tokens = consoleTokenClient({
          authUrl: config.AUTH_URL,
          agent: deps.agents.auth,
          timeoutMs: config.AUTH_TIMEOUT_MS,
          client: consoleClient,
        });
        mountConsole(app, {
          languages: config.LANGUAGES,
          maxBodyBytes: config.MAX_BODY_BYTES,
          trustedProxyHops: config.TRUSTED_PROXY_HOPS,
          sessions: consoleSessions(deps.consoleSessions, tokens, config.console, deps.logger),
          tokens,
          api: consoleApi(deps.agents.self, config.AUTH_TIMEOUT_MS + timeoutMs),
          limits: config.limits,
          transports: deps.transports,
          settings: deps.settings,
        });
      }
      app.use((_req, _res, next) => next(new AppError('NOT_FOUND')));
    },
  });
  // Before the kit reads the request's language, and before it picks the route.
  const rewriteLanguagePrefix = languagePrefixRewriter(config.LANGUAGES);
  return (req, res) => {
    rewriteLanguagePrefix(req);
    app(req, res);
  };
}
