import type { Language } from '@spam-check/contracts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, {
  type ErrorRequestHandler,
  type Express,
  type IRouter,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import type { Logger } from 'pino';
import { jsonBodyParser } from './body';
import { requestContext } from './context';
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
   * The routes every check passes (the detectors' checks, the gateway's mail and text checks, auth's
   * introspection), on the kit's router that matches exactly (`exactRouter`): they get Node's request and
   * response without Express's helpers, read their own bodies and answer with `sendJson`.
   */
  hotRoutes?: (router: Router) => void;
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

/** A router whose paths match exactly: `/V1/CHECK` and `/v1/check/` are not `/v1/check`. */
function exactRouter(): Router {
  return express.Router({ caseSensitive: true, strict: true });
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
 * The HTTP skeleton every service shares: request ids in and out, language, access logs, metrics, /livez
 * /readyz /metrics (or /livez only, see `probesOnManagementPort`), JSON bodies (415 non-JSON, 400 malformed,
 * 413 too large), 404/405 and one error handler producing RFC 9457 problems. It never listens: `serve` does,
 * so tests start it on port 0.
 *
 * Every route is an Express route, in two Express routers: the kit's own router (`express.Router`) takes each
 * request first, begins it and answers the hot routes (`hotRoutes`); what it does not answer goes on, as its
 * last middleware, to the Express app with every other route. The hot routes thus skip what the app does per
 * request before routing (`app.handle` gives each request and response Express's prototypes, which costs a
 * check more than all the routing: docs/design.md, "HTTP stack"), and get Node's request and response as
 * they are: they read their own bodies (`readJsonBody`, `readJsonBytes`) and answer with `sendJson`, never
 * with Express's helpers.
 */
export function createServiceApp(options: ServiceAppOptions): ServiceApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  mountProbes(app, options, options.probesOnManagementPort ? ['/livez'] : PROBE_PATHS);
  options.beforeBodyParser?.(app);
  app.use(jsonBodyParser(options.config.MAX_BODY_BYTES));
  options.routes?.(app);
  app.use((_req, _res, next) => next(new AppError('NOT_FOUND')));
  app.use(errorHandler);

  const kit = exactRouter();
  kit.use((req, res, next) => {
    // Express's app keeps the locals it finds (`app.handle` makes them only where there are none).
    res.locals = Object.create(null) as Response['locals'];
    res.locals.context = beginRequest(req, res, options, () => ({
      route:
        (req.route as { path?: string } | undefined)?.path ??
        (res.statusCode === 404 ? 'unmatched' : pathOf(req.url)),
      path: pathOf(req.url),
    }));
    next();
  });
  options.hotRoutes?.(kit);
  kit.use(app);
  kit.use(errorHandler);
  return (req, res) => {
    // Unreached: the app and the error handler answer every request and never hand one on.
    kit(req as Request, res as Response, () => res.destroy());
  };
}

/** The path of a request URL, without its query string. */
function pathOf(url = '/'): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Express's end of `answerError`. A failure after the answer began leaves nothing sound to send on that
 * connection: it is logged and the connection cut.
 */
const errorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const context = requestContext(res);
  if (!res.headersSent) return answerError(error, req, res, context);
  context.log.error({ err: error }, 'request failed after its answer began');
  req.socket.destroy();
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
