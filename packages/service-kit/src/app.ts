import type { Language } from '@spam-check/contracts';
import express, {
  type ErrorRequestHandler,
  type Express,
  type IRouter,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { Logger } from 'pino';
import { jsonBodyParser } from './body';
import { requestContext, type RequestContext } from './context';
import { AppError, isAppError } from './errors';
import { pickLanguage } from './language';
import type { Metrics } from './metrics';
import { buildProblem, sendProblem } from './problem';
import { requestIdOf } from './request-id';
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
  /** Mounts the service's own routes; runs after the kit's middleware and before its 404 and error handlers. */
  routes: (app: Express) => void;
  /**
   * Runs first on every request, before the request id and language are read: a place to rewrite `req.url`
   * and request headers (the gateway maps a language path prefix to `Accept-Language` here). It cannot fail:
   * a request it leaves alone goes on through the routes, so an unknown path still ends in the 404 problem.
   */
  rewriteRequest?: (req: Request) => void;
  /** Mounted before the JSON body parser (e.g. a proxy that streams bodies, a form-encoded endpoint). */
  beforeBodyParser?: (app: Express) => void;
  /**
   * Hot POST endpoints dispatched without Express's router. Each is also registered with `postRoute` (just
   * before `beforeBodyParser`), and a POST whose URL is exactly `path` runs the kit's per-request hook and
   * then `handlers` directly, with the same request and response objects, `next(error)` ending in the same
   * error handler and a `next()` past the last handler in the same 405: the answers are those of the router
   * path, minus its per-request cost. Any other method or URL (query string, trailing slash, another case)
   * takes the router. Matched on the URL as received, so not for paths that `rewriteRequest` changes.
   */
  directRoutes?: { path: string; handlers: [RequestHandler, ...RequestHandler[]] }[];
  /**
   * Leaves `/readyz` and `/metrics` to `createManagementApp` on a port of their own (the gateway's public
   * listener serves neither); `/livez` stays, since it tells nothing and shows the port answers.
   */
  probesOnManagementPort?: boolean;
}

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
 * The express skeleton every service shares: request ids in and out, language, access logs, metrics,
 * /livez /readyz /metrics (or /livez only, see `probesOnManagementPort`), JSON bodies (415 non-JSON, 400 malformed, 413 too large), 404/405 and one error
 * handler producing RFC 9457 problems. It never listens: `serve` does, so tests start it on port 0.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const { logger, metrics } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');

  const kitHook: RequestHandler = (req, res, next) => {
    options.rewriteRequest?.(req);
    const requestId = requestIdOf(req.headers['x-request-id']);
    const startedAt = process.hrtime.bigint();
    const locals = res.locals as Partial<RequestContext>;
    locals.requestId = requestId;
    locals.language = pickLanguage(
      req.headers['accept-language'],
      options.config.LANGUAGES,
      options.config.DEFAULT_LANGUAGE,
    );
    locals.startedAt = startedAt;
    // The request's child logger is built on first use: most requests never log anything but their access
    // line, and a pino child (bindings serialised, redaction set up) costs more than the rest of this hook.
    let log: Logger | undefined;
    Object.defineProperty(locals, 'log', {
      configurable: true,
      enumerable: true,
      get: () => (log ??= logger.child({ request_id: requestId })),
    });
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      const route =
        (req.route as { path?: string } | undefined)?.path ??
        (res.statusCode === 404 ? 'unmatched' : req.path);
      metrics.httpDuration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
      const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const path = req.path;
      if (path === '/livez' || path === '/readyz' || path === '/metrics') return;
      // Written by the root logger with request_id first: the same line as the child logger would write.
      logger[level](
        {
          request_id: requestId,
          method: req.method,
          path,
          status: res.statusCode,
          duration_ms: Math.round(seconds * 1e4) / 10,
        },
        'request completed',
      );
    });
    next();
  };
  app.use(kitHook);

  mountProbes(app, options, options.probesOnManagementPort ? ['/livez'] : PROBE_PATHS);

  for (const route of options.directRoutes ?? []) postRoute(app, route.path, ...route.handlers);
  options.beforeBodyParser?.(app);
  app.use(jsonBodyParser(options.config.MAX_BODY_BYTES));
  options.routes(app);

  app.use((_req, _res, next) => next(new AppError('NOT_FOUND')));
  app.use(errorHandler);
  if (options.directRoutes?.length) dispatchDirectly(app, kitHook, options.directRoutes);
  return app;
}

/**
 * Wraps `app.handle` (what the HTTP server and supertest call) so that an exact `POST <path>` of a direct
 * route skips the router. It prepares the request and response as `app.handle` and the router do (Express
 * prototypes, `req.res`/`res.req`, `res.locals`, `originalUrl`, `baseUrl`, `params`, `req.route.path` for
 * the metrics label) and runs the kit hook and the route's handlers in order.
 */
function dispatchDirectly(
  app: Express,
  kitHook: RequestHandler,
  routes: NonNullable<ServiceAppOptions['directRoutes']>,
): void {
  type Handle = (req: Request, res: Response, callback?: (error?: unknown) => void) => void;
  const expressApp = app as unknown as { handle: Handle; request: object; response: object };
  const routerHandle = expressApp.handle.bind(app);
  const chains = new Map(routes.map((route) => [route.path, [kitHook, ...route.handlers]]));
  expressApp.handle = (req, res, callback) => {
    const chain = req.method === 'POST' ? chains.get(req.url) : undefined;
    if (!chain) return routerHandle(req, res, callback);
    const path = req.url;
    Object.setPrototypeOf(req, expressApp.request);
    Object.setPrototypeOf(res, expressApp.response);
    req.res = res;
    res.req = req;
    res.locals ??= Object.create(null) as Response['locals'];
    req.originalUrl = req.url;
    req.baseUrl = '';
    req.params = {};
    (req as { route?: unknown }).route = { path };
    let index = 0;
    let failed = false;
    const next = (error?: unknown): void => {
      if (error !== undefined && error !== null && !failed) {
        failed = true;
        errorHandler(error, req, res, () => {
          // The router's final handler after an error with the answer already started: cut the connection.
          req.socket.destroy();
        });
        return;
      }
      if (failed) return;
      const handler = chain[index++];
      if (!handler) {
        // Past the last POST handler the router reaches `postRoute`'s catch-all: the same 405.
        res.setHeader('Allow', 'POST');
        return next(new AppError('METHOD_NOT_ALLOWED'));
      }
      try {
        const result = handler(req, res, next);
        if (result instanceof Promise)
          result.then(undefined, (error: unknown) => next(error ?? new Error('Rejected promise')));
      } catch (error) {
        next(error);
      }
    };
    req.next = next;
    next();
  };
}

function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  return new AppError('INTERNAL_ERROR', { cause: error });
}

/** The single place where errors become HTTP problems; nothing internal leaves the service. */
export const errorHandler: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (res.headersSent) return next(error);
  // Refused before its body arrived (401, 413, 415...): close the connection after the answer instead of
  // keeping it alive, which would wait for the rest of the body, however slowly it comes.
  if (!req.complete) res.setHeader('Connection', 'close');
  const appError = toAppError(error);
  const context = requestContext(res);
  const problem = buildProblem(appError.code, context.language, context.requestId, appError.errors);
  if (problem.status >= 500)
    context.log.error(
      { err: appError.cause ?? appError, code: appError.code, internal: appError.internal },
      'request failed',
    );
  else if (appError.internal || appError.cause)
    context.log.warn(
      { code: appError.code, internal: appError.internal ?? String(appError.cause) },
      'request refused',
    );
  sendProblem(res, problem, { ...appError.headers });
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
