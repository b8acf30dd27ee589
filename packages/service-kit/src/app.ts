import type { Language } from '@spam-check/contracts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type IRouter, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { jsonBodyParser } from './body';
import { requestContext } from './context';
import { answerDirectly, pathOf, type DirectRoute } from './direct-route';
import { answerError } from './error-answer';
import { AppError } from './errors';
import type { Metrics } from './metrics';
import { beginRequest } from './request';
import { evaluateReadiness, type Readiness } from './readiness';

/** The kit's share of a service's configuration (see `commonConfigShape`). */
export interface KitConfig {
  LANGUAGES: readonly Language[];
  DEFAULT_LANGUAGE: Language;
  MAX_BODY_BYTES: number;
}

/** What every service's `createApp(deps)` receives; each service's deps extend it with its own. */
export interface ServiceBase<C extends KitConfig = KitConfig> {
  config: C;
  logger: Logger;
  metrics: Metrics;
  readiness: Readiness;
}

export interface ServiceAppOptions extends ServiceBase {
  /**
   * Hot POST endpoints answered by plain `node:http` handlers, without Express (see `DirectRoute`). The
   * service's request listener sends a request whose path is one of these to its handler, anything else to
   * the Express app.
   */
  directRoutes?: DirectRoute[];
  /**
   * Express routes that read their own body (a proxy that streams it, a form-encoded endpoint, a router with
   * its own limits): mounted after the kit's middleware, before the JSON body parser.
   */
  beforeBodyParser?: (app: Express) => void;
  /** Express routes taking JSON: mounted after the kit's JSON body parser, before its 404 and error handler. */
  routes?: (app: Express) => void;
  /**
   * Leaves `/readyz` and `/metrics` to `createManagementApp` on a port of their own (the gateway's public
   * listener serves neither); `/livez` stays, since it tells nothing and shows the port answers.
   */
  probesOnManagementPort?: boolean;
}

/** A service's HTTP entry: what `serve` hands every request to. */
export type ServiceApp = (req: IncomingMessage, res: ServerResponse) => void;

const PROBE_PATHS = ['/livez', '/readyz', '/metrics'] as const;

function mountProbes(
  app: Express,
  { metrics, readiness }: Pick<ServiceBase, 'metrics' | 'readiness'>,
  paths: readonly (typeof PROBE_PATHS)[number][],
): void {
  if (paths.includes('/livez'))
    app.get('/livez', (_req, res) => {
      res.json({ status: 'alive' });
    });
  if (paths.includes('/readyz'))
    app.get('/readyz', async (_req, res) => {
      const state = await evaluateReadiness(readiness);
      res
        .status(state.ready ? 200 : 503)
        .json({ status: state.ready ? 'ready' : 'not ready', checks: state.checks });
    });
  if (paths.includes('/metrics'))
    app.get('/metrics', async (_req, res) => {
      res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
}

/**
 * The management listener's app: `/livez`, `/readyz` (false while draining) and `/metrics` and nothing
 * else, for probes and Prometheus on a port that no Service or Ingress exposes to the public.
 */
export function createManagementApp(base: Pick<ServiceBase, 'metrics' | 'readiness'>): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  mountProbes(app, base, PROBE_PATHS);
  app.use((_req, res) => {
    res.status(404).json({ status: 'not found' });
  });
  return app;
}

/**
 * The HTTP skeleton every service shares: request ids in and out, language, access logs, metrics, /livez
 * /readyz /metrics (or /livez only, see `probesOnManagementPort`), JSON bodies (415 non-JSON, 400 malformed,
 * 413 too large), 404/405 and one error handler producing RFC 9457 problems. It never listens: `serve` does,
 * so tests start it on port 0.
 *
 * The returned request listener is the one place where a request is dispatched: an exact path of a direct
 * route goes to its plain `node:http` handler, everything else to the Express app. Both paths share the kit's
 * request start (`beginRequest`), body reading, problem writing (`answerError`), access log and metrics.
 */
export function createServiceApp(options: ServiceAppOptions): ServiceApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use((req, res, next) => {
    res.locals.context = beginRequest(req, res, options, () => ({
      route:
        (req.route as { path?: string } | undefined)?.path ??
        (res.statusCode === 404 ? 'unmatched' : req.path),
      path: req.path,
    }));
    next();
  });
  mountProbes(app, options, options.probesOnManagementPort ? ['/livez'] : PROBE_PATHS);
  options.beforeBodyParser?.(app);
  app.use(jsonBodyParser(options.config.MAX_BODY_BYTES));
  options.routes?.(app);
  app.use((_req, _res, next) => next(new AppError('NOT_FOUND')));
  app.use(errorHandler);

  const direct = new Map((options.directRoutes ?? []).map((route) => [route.path, route]));
  return (req, res) => {
    const route = direct.get(pathOf(req.url));
    if (route) answerDirectly(route, req, res, options);
    else app(req, res);
  };
}

/** Express's end of `answerError`. */
const errorHandler: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (res.headersSent) return next(error);
  answerError(error, req, res, requestContext(res));
};

/** Registers POST handlers on a path and answers every other method with 405 and `Allow: POST`. */
export function postRoute(
  router: IRouter,
  path: string,
  ...handlers: [RequestHandler, ...RequestHandler[]]
): void {
  router.post(path, ...handlers);
  router.all(path, (_req, res, next) => {
    res.setHeader('Allow', 'POST');
    next(new AppError('METHOD_NOT_ALLOWED'));
  });
}
