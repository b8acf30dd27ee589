import {
  ADMIN_SCOPE,
  createBatchSchemas,
  createRequestSchemas,
  mailResultSchema,
  textResultSchema,
  type MailCheckRequest,
  type MailResult,
  type TextCheckRequest,
  type TextResult,
} from '@spam-check/contracts';
import {
  Counter,
  elapsedMs,
  jsonBodyParser,
  parseBody,
  requestContext,
  type RequestContext,
} from '@spam-check/service-kit';
import { isIPv6 } from 'node:net';
import { consoleRouter } from '@spam-check/console';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from './app-deps';
import type { HttpDetector } from './data-access/detector-client';
import { createAkismetKeyVerifier } from './data-access/akismet-keys';
import { createDataEraser } from './data-access/erasure';
import { llmEndpointReader } from './data-access/llm-endpoint';
import type { Caller } from './domain/authorization';
import { submittedOf } from './domain/submitted';
import type { CheckedItem, Submitted } from './domain/review-item';
import { adminRouter, type ClientReviewHandlers } from './entry-points/http/admin-routes';
import { akismetRouter } from './entry-points/http/akismet-routes';
import { authenticate, bearerAuthentication, callerOf } from './entry-points/http/authenticate';
import { batchCheck } from './entry-points/http/batch-check';
import { detectorCheck } from './entry-points/http/detector-check';
import { checkList } from './entry-points/http/check-list';
import { feedback } from './entry-points/http/feedback';
import { hybridCheck } from './entry-points/http/hybrid-check';
import { oauthMetadata } from './entry-points/http/oauth-metadata';
import { oauthProxy } from './entry-points/http/oauth-proxy';
import { clientRateLimit, rateLimit } from './entry-points/http/rate-limit';
import { siteRulesRouter } from './entry-points/http/site-rules';

function validate(schema: z.ZodType): RequestHandler {
  return (req, res, next) => {
    req.body = parseBody(schema, req.body, requestContext(res).language);
    next();
  };
}

/** What every API route is guarded by: a bearer token (with `spam:admin` for the admin API), a rate limit. */
function guards(deps: AppDeps) {
  const { config } = deps;
  const refusals = new Counter({
    name: 'gateway_auth_refusals_total',
    help: 'Check requests refused by token validation, by problem code',
    labelNames: ['code'] as const,
    registers: [deps.metrics.registry],
  });
  const bearer = (scope?: string) =>
    bearerAuthentication(deps.introspector, deps.failedTokens, refusals, config.TRUSTED_PROXY_HOPS, scope);
  const checkCaller = bearer();
  const limitClient = clientRateLimit(
    deps.rateLimits,
    config.RATE_LIMIT_REQUESTS,
    config.RATE_LIMIT_WINDOW_SECONDS,
  );
  return {
    checkCaller,
    limitClient,
    authenticated: authenticate(checkCaller),
    authenticatedAdmin: authenticate(bearer(ADMIN_SCOPE)),
    limited: rateLimit(limitClient),
  };
}

/**
 * What each check leaves behind once answered: its usage count (a batch counts once per checked item, with
 * the item's own duration), its review item, and the client's webhook events (built from the same item).
 */
function checkRecorders(deps: AppDeps) {
  const count = (
    clientId: string,
    kind: 'mail' | 'text',
    result: MailResult | TextResult,
    durationMs: number,
  ) =>
    deps.usage?.recordCheck({
      clientId,
      kind,
      verdict: result.verdict,
      reasons: result.reasons.map((reason) => reason.code),
      durationMs,
    });
  const keep = (clientId: string, checks: CheckedItem[]) => {
    deps.review.recorder.record(clientId, checks);
    deps.webhooks?.events.checked(clientId, checks);
  };
  const mail = (result: MailResult, submitted: Submitted): CheckedItem => ({
    checked: { kind: 'mail', result },
    submitted,
  });
  const text = (result: TextResult, submitted: Submitted): CheckedItem => ({
    checked: { kind: 'text', result },
    submitted,
  });
  return {
    keep,
    mail: (caller: Caller, context: RequestContext, result: MailResult, body: Buffer) => {
      count(caller.clientId, 'mail', result, elapsedMs(context));
      keep(caller.clientId, [mail(result, submittedOf(body))]);
    },
    text: (caller: Caller, context: RequestContext, result: TextResult, body: Buffer) => {
      count(caller.clientId, 'text', result, elapsedMs(context));
      keep(caller.clientId, [text(result, submittedOf(body))]);
    },
    mailItems: (res: Response, results: MailResult[], items: (string | MailCheckRequest)[]) => {
      const clientId = callerOf(res).clientId;
      for (const result of results) count(clientId, 'mail', result, result.duration_ms);
      keep(
        clientId,
        results.map((result, index) => {
          const item = items[index];
          return mail(result, { email: typeof item === 'string' ? item : item?.email });
        }),
      );
    },
    textItems: (res: Response, results: TextResult[], items: TextCheckRequest[]) => {
      const clientId = callerOf(res).clientId;
      for (const result of results) count(clientId, 'text', result, result.duration_ms);
      keep(
        clientId,
        results.map((result, index) => text(result, items[index] ?? {})),
      );
    },
  };
}

/** The mail and text checks: the kit's hot routes, their bodies forwarded as bytes. */
function detectorChecks(
  deps: AppDeps,
  guard: ReturnType<typeof guards>,
  recorded: ReturnType<typeof checkRecorders>,
) {
  const check = <S extends z.ZodType>(
    detector: HttpDetector,
    schema: S,
    onResult: (caller: Caller, context: RequestContext, result: z.output<S>, body: Buffer) => void,
  ) =>
    detectorCheck({
      detector,
      schema,
      timeoutMs: deps.config.DETECTOR_TIMEOUT_MS,
      maxBodyBytes: deps.config.MAX_BODY_BYTES,
      authenticate: guard.checkCaller,
      rateLimit: guard.limitClient,
      onResult,
    });
  return {
    mail: check(deps.detectors.email, mailResultSchema, recorded.mail),
    text: check(deps.detectors.text, textResultSchema, recorded.text),
  };
}

/** The batch checks: rate limited by their number of items, so after the body is read. */
function batchChecks(deps: AppDeps, recorded: ReturnType<typeof checkRecorders>) {
  const schemas = createBatchSchemas(deps.config.limits);
  const limit = {
    store: deps.rateLimits,
    limit: deps.config.RATE_LIMIT_REQUESTS,
    windowSeconds: deps.config.RATE_LIMIT_WINDOW_SECONDS,
  };
  return {
    mail: batchCheck(
      {
        field: 'emails',
        envelope: schemas.mail.envelope,
        item: schemas.mail.item,
        check: (emails, meta) =>
          deps.batches.checkMails(
            emails.map((item) => (typeof item === 'string' ? { email: item } : item)),
            meta,
          ),
        onResults: recorded.mailItems,
      },
      limit,
    ),
    text: batchCheck(
      {
        field: 'items',
        envelope: schemas.text.envelope,
        item: schemas.text.item,
        check: (items, meta) => deps.batches.checkTexts(items, meta),
        onResults: recorded.textItems,
      },
      limit,
    ),
  };
}

/** This gateway's listener as the request reached it: the console calls the public API there. */
function selfUrl(req: Request): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `http://${isIPv6(address) ? `[${address}]` : address}:${req.socket.localPort}`;
}

/** The operator console (`@spam-check/console`) over this gateway's public API, or undefined when off. */
function operatorConsole(deps: AppDeps): Router | undefined {
  const { config } = deps;
  if (!config.console.client) return undefined;
  return consoleRouter({
    apiUrl: selfUrl,
    client: config.console.client,
    sessionStore: deps.consoleSessions,
    session: config.console,
    languages: config.LANGUAGES,
    maxBodyBytes: config.MAX_BODY_BYTES,
    trustedProxyHops: config.TRUSTED_PROXY_HOPS,
    timeoutMs: { token: config.AUTH_TIMEOUT_MS, api: config.AUTH_TIMEOUT_MS + config.DETECTOR_TIMEOUT_MS },
    logger: deps.logger,
    llmEndpoint: llmEndpointReader({
      url: config.TEXT_DETECTOR_URL,
      agent: deps.detectors.text.agent,
      timeoutMs: config.DETECTOR_TIMEOUT_MS,
    }),
  });
}

export interface RouteHandlers {
  /** A `spam:check` bearer token, and the client's rate limit. */
  authenticated: RequestHandler;
  limited: RequestHandler;
  checks: { mail: RequestHandler; text: RequestHandler };
  batches: { mail: RequestHandler; text: RequestHandler };
  jsonBody: RequestHandler;
  batchBody: RequestHandler;
  /** The hybrid check's body validated, then the check. */
  hybrid: [RequestHandler, RequestHandler];
  feedback: RequestHandler;
  /** `GET /api/v1/checks`, the client's review list. */
  checkList: RequestHandler;
  oauth: RequestHandler;
  /** Akismet's REST API under /1.1, with a client's Akismet key (docs/akismet.md). */
  akismet: Router;
  /** RFC 8414 metadata: where the token and revocation endpoints are. */
  oauthMetadata: RequestHandler;
  admin: Router;
  /** The calling client's own site rules. */
  siteRules: Router;
  /** The operator console's router, absent when it has no OAuth client (switched off). */
  console: Router | undefined;
}

/** The Akismet-compatible endpoints: the client's key stands for its token, then the same checks and reports. */
function akismetRoutes(
  deps: AppDeps,
  guard: ReturnType<typeof guards>,
  recorded: ReturnType<typeof checkRecorders>,
) {
  const { config } = deps;
  return akismetRouter({
    verifyKey: createAkismetKeyVerifier({
      authUrl: config.AUTH_URL,
      clientId: config.gatewayClient.id,
      clientSecret: config.gatewayClient.secret,
      timeoutMs: config.AUTH_TIMEOUT_MS,
      agent: deps.agents.auth,
    }),
    limitClient: guard.limitClient,
    transports: deps.transports,
    detectors: deps.detectors,
    hybrids: deps.hybrids,
    settings: deps.settings,
    usage: deps.usage,
    keep: recorded.keep,
    languages: config.LANGUAGES,
    limits: config.limits,
    timeoutMs: config.DETECTOR_TIMEOUT_MS,
    maxBodyBytes: config.MAX_BODY_BYTES,
    trustedProxyHops: config.TRUSTED_PROXY_HOPS,
  });
}

/**
 * A client's review list and its reports, for the client itself (public routes) and for the console (admin
 * routes, as the client named in the path): one handler each, the client passed in.
 */
function reviewHandlers(deps: AppDeps): ClientReviewHandlers {
  return {
    report: feedback({
      detectors: deps.detectors,
      hybrids: deps.hybrids,
      usage: deps.usage,
      onReported: (clientId, checkId, label) => {
        deps.review.reported(clientId, checkId, label);
        deps.webhooks?.events.reported(clientId, { check_id: checkId, label });
      },
      limits: deps.config.limits,
      timeoutMs: deps.config.DETECTOR_TIMEOUT_MS,
    }),
    list: checkList(deps.review),
  };
}

/** Each route's handlers, built once from the service's dependencies; `createApp` puts them on their paths. */
export function routeHandlers(deps: AppDeps): RouteHandlers {
  const { config } = deps;
  const guard = guards(deps);
  const recorded = checkRecorders(deps);
  const clientReview = reviewHandlers(deps);
  return {
    authenticated: guard.authenticated,
    limited: guard.limited,
    checks: detectorChecks(deps, guard, recorded),
    batches: batchChecks(deps, recorded),
    jsonBody: jsonBodyParser(config.MAX_BODY_BYTES),
    batchBody: jsonBodyParser(config.MAX_BATCH_BODY_BYTES),
    hybrid: [
      validate(createRequestSchemas(config.limits).hybrid),
      hybridCheck(
        deps.transports,
        deps.hybrids,
        deps.settings,
        deps.usage,
        deps.review.recorder,
        deps.webhooks?.events,
      ),
    ],
    feedback: (req, res) => clientReview.report(req, res, callerOf(res).clientId),
    checkList: (req, res) => clientReview.list(req, res, callerOf(res).clientId),
    oauth: oauthProxy({
      authUrl: config.AUTH_URL,
      agent: deps.proxyAgent,
      timeoutMs: config.AUTH_TIMEOUT_MS,
      trustedProxyHops: config.TRUSTED_PROXY_HOPS,
      console: config.console.client,
    }),
    oauthMetadata: oauthMetadata(config.TRUSTED_PROXY_HOPS),
    akismet: akismetRoutes(deps, guard, recorded),
    admin: adminRouter({
      guards: [guard.authenticatedAdmin, guard.limited],
      authAdmin: deps.authAdmin,
      settings: deps.settings,
      usage: deps.usage,
      erase: createDataEraser({
        detectors: deps.detectors,
        hybrids: deps.hybrids,
        usage: deps.usage,
        settings: deps.settings,
        webhooks: deps.webhooks,
        review: deps.review,
        timeoutMs: config.DETECTOR_BATCH_TIMEOUT_MS,
      }),
      maxBodyBytes: config.MAX_BODY_BYTES,
      trials: { limits: config.limits, transports: deps.transports, settings: deps.settings },
      webhooks: deps.webhooks,
      review: clientReview,
    }),
    siteRules: siteRulesRouter({
      guards: [guard.authenticated, guard.limited],
      jsonBody: jsonBodyParser(config.MAX_BODY_BYTES),
      settings: deps.settings,
    }),
    console: operatorConsole(deps),
  };
}
