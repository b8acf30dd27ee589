import {
  clientIdSchema,
  clientSettingsSchema,
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
import type { UsageStore } from '../../data-access/usage-store';
import { callerOf } from './authenticate';

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
  maxBodyBytes: number;
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

const run =
  (handler: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req, res, next) => {
    handler(req, res).catch(next);
  };

function methods(router: Router, path: string, allowed: string) {
  router.all(path, (_req, res, next) => {
    res.setHeader('Allow', allowed);
    next(new AppError('METHOD_NOT_ALLOWED'));
  });
}

/**
 * The admin API (DESIGN.md §6.3) under /api/v1/admin: every request needs a token with `spam:admin`.
 * Clients are the auth service's (proxied, with the gateway's credentials); settings and stats live in Redis
 * and are served here.
 */
export function adminRouter(deps: AdminDeps): Router {
  const router = Router({ mergeParams: true });
  const json = jsonBodyParser(deps.maxBodyBytes);
  const forward = (method: string, path: (req: Request) => string, body?: (req: Request) => unknown) =>
    run(async (req, res) => {
      const answer = await deps.authAdmin.call(method, path(req), metaOf(res), body?.(req));
      res.status(answer.status).set(NO_STORE);
      if (answer.status === 204) res.end();
      else res.json(answer.body);
    });
  const existing = async (req: Request, res: Response) => {
    const id = clientIdParam(req);
    await deps.authAdmin.call('GET', `/admin/clients/${id}`, metaOf(res));
    return id;
  };

  router.use(...deps.guards);

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
    run(async (req, res) => {
      const id = clientIdParam(req);
      await deps.authAdmin.call('DELETE', `/admin/clients/${id}`, metaOf(res));
      await deps.settings
        ?.remove(id)
        .catch((error: unknown) =>
          requestContext(res).log.warn(
            { err: error, client_id: id },
            'settings of a deleted client not removed',
          ),
        );
      res.status(204).end();
    }),
  );
  methods(router, '/clients/:id', 'DELETE');

  router.get(
    '/clients/:id/settings',
    run(async (req, res) => {
      const settings = needed(deps.settings, 'client settings');
      const id = await existing(req, res);
      res.set(NO_STORE).json(await settings.read(id));
    }),
  );
  router.put(
    '/clients/:id/settings',
    json,
    audited('settings.update', (req) => req.params.id, deps.usage),
    run(async (req, res) => {
      const settings = needed(deps.settings, 'client settings');
      const document = parseBody(clientSettingsSchema, req.body, requestContext(res).language);
      const id = await existing(req, res);
      await settings.put(id, document);
      res.set(NO_STORE).json(document);
    }),
  );
  methods(router, '/clients/:id/settings', 'GET, PUT');

  router.get(
    '/clients/:id/stats',
    run(async (req, res) => {
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
    }),
  );
  methods(router, '/clients/:id/stats', 'GET');

  router.get(
    '/clients/:id/feedback',
    run(async (req, res) => {
      const usage = needed(deps.usage, 'recent feedback');
      const { limit } = parseBody(recentFeedbackQuerySchema, req.query, requestContext(res).language);
      const id = await existing(req, res);
      res.set(NO_STORE).json({ client_id: id, feedback: await usage.recentFeedback(id, limit) });
    }),
  );
  methods(router, '/clients/:id/feedback', 'GET');

  router.use((_req, _res, next) => next(new AppError('NOT_FOUND')));
  return router;
}
