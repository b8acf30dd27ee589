import {
  clientIdSchema,
  clientSettingsSchema,
  erasureSchemas,
  recentFeedbackQuerySchema,
  statsQuerySchema,
  validationRuleMessage,
  type AdminAction,
} from '@spam-check/contracts';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import { AppError, jsonBodyParser, parseBody, requestContext } from '@spam-check/service-kit';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { AdminCallMeta, AuthAdmin } from '../../data-access/auth-admin';
import type { EraseData } from '../../data-access/erasure';
import type { CallMeta } from '../../domain/hybrid-check';
import type { UsageStore } from '../../data-access/usage-store';
import { trialCheck, type TrialDeps } from './admin-try';
import { akismetKeyRoutes } from './akismet-admin';
import type { Webhooks } from './webhooks';
import { callerOf } from './authenticate';
import { applyWebhookSettings, webhookHandlers } from './webhook-admin';

export const ADMIN_PREFIX = '/api/v1/admin';
const MAX_STATS_DAYS = 31;
const DAY_MS = 24 * 3600_000;

export interface AdminDeps {
  /** Bearer validation for `spam:admin` and the rate limit of the calling client. */
  guards: RequestHandler[];
  authAdmin: AuthAdmin;
  /** Absent without Redis (embedded mode): settings and stats then answer 503. */
  settings: ClientSettingsStore | undefined;
  usage: UsageStore | undefined;
  /** Erasure of an address or a client in every store (docs/design.md, Privacy and erasure). */
  erase: EraseData;
  maxBodyBytes: number;
  /** Trial checks as a client (the console's "try it"). */
  trials: TrialDeps;
  /** Webhook secrets, deliveries and test events; absent without Redis. */
  webhooks: Webhooks | undefined;
  /** A client's review list and reports, as the client's own routes serve them. */
  review: ClientReviewHandlers;
}

/** Handlers that serve the client given to them (the caller on the public routes, the path's id here). */
export interface ClientReviewHandlers {
  list: (req: Request, res: Response, clientId: string) => Promise<void>;
  report: (req: Request, res: Response, clientId: string) => Promise<void>;
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

function needed<T>(value: T | undefined, what: string): T {
  if (value === undefined)
    throw new AppError('SERVICE_UNAVAILABLE', { internal: `${what} need REDIS_URL (embedded mode)` });
  return value;
}

function metaOf(res: Response): AdminCallMeta {
  const context = requestContext(res);
  const caller = callerOf(res);
  return {
    requestId: context.requestId,
    language: context.language,
    clientId: caller.clientId,
    username: caller.username ?? '',
  };
}

/** The meta of a call to a detector: the request's id and language, the calling (admin) client. */
function callMetaOf(res: Response): CallMeta {
  const { requestId, language } = requestContext(res);
  return { requestId, language, clientId: callerOf(res).clientId };
}

const idParameter = z.object({ id: clientIdSchema });

/** The `:id` of the path (`req.res`: Express's documented link from a request to its response). */
function clientIdParam(req: Request): string {
  return parseBody(idParameter, req.params, requestContext(req.res as Response).language).id;
}

/**
 * Logs an admin action when its answer has gone (who, what, on which client, when, the status; never a
 * body, so never a secret), and keeps it for the stats answer's `recent_admin_actions`.
 */
function audited(
  action: AdminAction['action'],
  target: (req: Request) => unknown,
  usage: UsageStore | undefined,
): RequestHandler {
  return (req, res, next) => {
    res.on('finish', () => {
      const clientId = target(req);
      if (typeof clientId !== 'string') return;
      const context = requestContext(res);
      const caller = callerOf(res);
      const entry: AdminAction = {
        at: new Date().toISOString(),
        actor: { client_id: caller.clientId, username: caller.username ?? '' },
        action,
        client_id: clientId,
        status: res.statusCode,
        request_id: context.requestId,
      };
      context.log.info({ admin_action: entry }, 'admin action');
      usage
        ?.recordAdminAction(entry)
        .catch((error: unknown) =>
          context.log.warn({ err: error, admin_action: entry }, 'admin action not kept for the stats answer'),
        );
    });
    next();
  };
}

/**
 * Whom an erasure concerns, for the admin action: the client erased when the erasure found its data, else
 * the caller (an address concerns every client; an id that is invalid or has no data is no client to keep a
 * log for, and a log under any id asked for would be a key per guess).
 */
function erasureTarget(req: Request, res: Response): string {
  const body = req.body as { client_id?: unknown; email?: unknown } | undefined;
  const erasedData = (res.locals as { erasedData?: boolean }).erasedData === true;
  if (erasedData && typeof body?.client_id === 'string' && body.email === undefined) return body.client_id;
  return callerOf(res).clientId;
}

function methods(router: Router, path: string, allowed: string) {
  router.all(path, (_req, res, next) => {
    res.setHeader('Allow', allowed);
    next(new AppError('METHOD_NOT_ALLOWED'));
  });
}

/** The client's id from the path, once auth says the client exists (else CLIENT_NOT_FOUND). */
const existingClient = (deps: AdminDeps) => async (req: Request, res: Response) => {
  const id = clientIdParam(req);
  await deps.authAdmin.call('GET', `/admin/clients/${id}`, metaOf(res));
  return id;
};

/** Clients: auth's, proxied with the gateway's credentials; a deleted client's data is erased here. */
function clientRoutes(router: Router, deps: AdminDeps, json: RequestHandler) {
  const forward =
    (method: string, path: (req: Request) => string, body?: (req: Request) => unknown) =>
    async (req: Request, res: Response) => {
      const answer = await deps.authAdmin.call(method, path(req), metaOf(res), body?.(req));
      res.status(answer.status).set(NO_STORE);
      if (answer.status === 204) res.end();
      else res.json(answer.body);
    };
  router.get(
    '/clients',
    forward('GET', () => '/admin/clients'),
  );
  router.post(
    '/clients',
    json,
    audited('client.create', (req) => (req.body as { id?: unknown } | undefined)?.id, deps.usage),
    forward(
      'POST',
      () => '/admin/clients',
      (req) => req.body,
    ),
  );
  methods(router, '/clients', 'GET, POST');

  router.post(
    '/clients/:id/secret',
    audited('client.rotate_secret', (req) => req.params.id, deps.usage),
    forward('POST', (req) => `/admin/clients/${clientIdParam(req)}/secret`),
  );
  methods(router, '/clients/:id/secret', 'POST');

  router.delete(
    '/clients/:id',
    audited('client.delete', (req) => req.params.id, deps.usage),
    audited('data.erase', (req) => req.params.id, deps.usage),
    async (req: Request, res: Response) => {
      const id = clientIdParam(req);
      await deps.authAdmin.call('DELETE', `/admin/clients/${id}`, metaOf(res));
      // The client is disabled first, so nothing new is stored for it while its data is erased. Should the
      // erasure fail (503), POST /erasure with its client_id finishes it.
      await deps.erase({ client_id: id }, callMetaOf(res));
      res.status(204).end();
    },
  );
  methods(router, '/clients/:id', 'DELETE');
}

function erasureRoute(router: Router, deps: AdminDeps, json: RequestHandler) {
  router.post(
    '/erasure',
    json,
    // An address concerns every client: the action is kept under the calling client, never the address.
    audited('data.erase', (req) => erasureTarget(req, req.res as Response), deps.usage),
    async (req: Request, res: Response) => {
      const { language, requestId } = requestContext(res);
      const request = parseBody(erasureSchemas.formOf(req.body), req.body, language);
      const erased = await deps.erase(request, callMetaOf(res));
      res.locals.erasedData = Object.values(erased).some((count) => count > 0);
      res.set(NO_STORE).json({ erased, request_id: requestId });
    },
  );
  methods(router, '/erasure', 'POST');
}

/** Settings (Redis), and trial checks that apply them. */
function settingsRoutes(router: Router, deps: AdminDeps, json: RequestHandler) {
  const existing = existingClient(deps);
  router.get('/clients/:id/settings', async (req: Request, res: Response) => {
    const settings = needed(deps.settings, 'client settings');
    const id = await existing(req, res);
    res.set(NO_STORE).json(await settings.read(id));
  });
  router.put(
    '/clients/:id/settings',
    json,
    audited('settings.update', (req) => req.params.id, deps.usage),
    async (req: Request, res: Response) => {
      const settings = needed(deps.settings, 'client settings');
      const { language } = requestContext(res);
      const document = parseBody(clientSettingsSchema, req.body, language);
      const id = await existing(req, res);
      const answer = await applyWebhookSettings(deps.webhooks, settings, id, document, language);
      await settings.put(id, document);
      res.set(NO_STORE).json(answer);
    },
  );
  methods(router, '/clients/:id/settings', 'GET, PUT');

  const webhooks = webhookHandlers({ webhooks: deps.webhooks, settings: deps.settings, existing });
  router.post(
    '/clients/:id/webhooks/:webhook_id/secret',
    audited('webhook.rotate_secret', (req) => req.params.id, deps.usage),
    webhooks.rotate,
  );
  methods(router, '/clients/:id/webhooks/:webhook_id/secret', 'POST');
  router.get('/clients/:id/webhooks/:webhook_id/deliveries', webhooks.deliveries);
  methods(router, '/clients/:id/webhooks/:webhook_id/deliveries', 'GET');
  router.post('/clients/:id/webhooks/:webhook_id/test', webhooks.test);
  methods(router, '/clients/:id/webhooks/:webhook_id/test', 'POST');

  const trial = trialCheck(deps.trials);
  router.post('/clients/:id/try/:kind', json, async (req: Request, res: Response) =>
    trial(req, res, await existing(req, res)),
  );
  methods(router, '/clients/:id/try/:kind', 'POST');
}

/** Statistics and recent feedback (Redis). */
function usageRoutes(router: Router, deps: AdminDeps) {
  const existing = existingClient(deps);
  router.get('/clients/:id/stats', async (req: Request, res: Response) => {
    const usage = needed(deps.usage, 'usage statistics');
    const { language } = requestContext(res);
    const query = parseBody(statsQuerySchema, req.query, language);
    const to = query.to ? new Date(query.to) : new Date();
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - 7 * DAY_MS);
    if (from > to || to.getTime() - from.getTime() > MAX_STATS_DAYS * DAY_MS)
      throw new AppError('VALIDATION_FAILED', {
        errors: [
          {
            path: 'from',
            message: validationRuleMessage('stats_range', language, { days: MAX_STATS_DAYS }),
          },
        ],
      });
    const id = await existing(req, res);
    res.set(NO_STORE).json(await usage.stats(id, from, to, query.interval));
  });
  methods(router, '/clients/:id/stats', 'GET');

  router.get('/clients/:id/feedback', async (req: Request, res: Response) => {
    const usage = needed(deps.usage, 'recent feedback');
    const { limit } = parseBody(recentFeedbackQuerySchema, req.query, requestContext(res).language);
    const id = await existing(req, res);
    res.set(NO_STORE).json({ client_id: id, feedback: await usage.recentFeedback(id, limit) });
  });
}

/**
 * The console's review of a client: its checks as the client lists them, and reports made as the client
 * (learnt, counted, listed and sent to its webhooks exactly as the client's own).
 */
function reviewRoutes(router: Router, deps: AdminDeps, json: RequestHandler) {
  const existing = existingClient(deps);
  router.get('/clients/:id/checks', async (req: Request, res: Response) => {
    const id = await existing(req, res);
    res.set(NO_STORE);
    await deps.review.list(req, res, id);
  });
  methods(router, '/clients/:id/checks', 'GET, HEAD');
  router.post(
    '/clients/:id/feedback',
    json,
    audited('feedback.report', (req) => req.params.id, deps.usage),
    async (req: Request, res: Response) => deps.review.report(req, res, await existing(req, res)),
  );
  methods(router, '/clients/:id/feedback', 'GET, POST');
}

/**
 * The admin API (docs/design.md, Administration) under /api/v1/admin: every request needs a token with
 * `spam:admin`. Clients are the auth service's (proxied, with the gateway's credentials); settings and stats
 * live in Redis and are served here.
 */
export function adminRouter(deps: AdminDeps): Router {
  const router = Router({ mergeParams: true });
  const json = jsonBodyParser(deps.maxBodyBytes);
  router.use(...deps.guards);
  clientRoutes(router, deps, json);
  akismetKeyRoutes(router, deps.authAdmin, (action) => audited(action, (req) => req.params.id, deps.usage));
  erasureRoute(router, deps, json);
  settingsRoutes(router, deps, json);
  usageRoutes(router, deps);
  reviewRoutes(router, deps, json);
  router.use((_req, _res, next) => next(new AppError('NOT_FOUND')));
  return router;
}
