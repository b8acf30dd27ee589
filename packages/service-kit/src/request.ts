import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Language } from '@spam-check/contracts';
import type { Logger } from 'pino';
import type { RequestContext } from './context';
import { pickLanguage } from './language';
import type { Metrics } from './metrics';
import { requestIdOf } from './request-id';

/** What the kit needs to know of a service to begin a request. */
export interface RequestScope {
  logger: Logger;
  metrics: Metrics;
  config: { LANGUAGES: readonly Language[]; DEFAULT_LANGUAGE: Language };
}

const PROBES = new Set(['/livez', '/readyz', '/metrics']);

/**
 * A request's context. Its child logger is made on first use: most requests never log anything but their
 * access line, and a pino child (bindings serialised, redaction set up) costs more than the rest of
 * `beginRequest`. A class, so that every context has one shape: a getter defined on each context with
 * `Object.defineProperty` gave every request a hidden class of its own, which made V8's property lookups on
 * contexts megamorphic and kept each request's objects alive through young-generation collections (README,
 * "Per-request objects").
 */
class Context implements RequestContext {
  readonly #logger: Logger;
  #log: Logger | undefined;

  constructor(
    readonly requestId: string,
    readonly language: Language,
    readonly startedAt: bigint,
    logger: Logger,
  ) {
    this.#logger = logger;
  }

  get log(): Logger {
    return (this.#log ??= this.#logger.child({ request_id: this.requestId }));
  }
}

/**
 * The start of every request: the request id (taken or made) echoed as `X-Request-Id`, the language, and at
 * `finish` the duration metric (labelled with the route that `describe` names) and one access line. Returns
 * the request's context (the kit keeps it in `res.locals.context`, read with `requestContext`).
 */
export function beginRequest(
  req: IncomingMessage,
  res: ServerResponse,
  scope: RequestScope,
  describe: () => { route: string; path: string },
): RequestContext {
  const { logger, metrics } = scope;
  const requestId = requestIdOf(req.headers['x-request-id']);
  const startedAt = process.hrtime.bigint();
  const language = pickLanguage(
    req.headers['accept-language'],
    scope.config.LANGUAGES,
    scope.config.DEFAULT_LANGUAGE,
  );
  const context = new Context(requestId, language, startedAt, logger);
  res.setHeader('X-Request-Id', requestId);
  res.on('finish', () => {
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    const { route, path } = describe();
    const method = req.method ?? '';
    metrics.httpDuration.observe({ method, route, status: String(res.statusCode) }, seconds);
    const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
    if (!logger.isLevelEnabled(level) || PROBES.has(path)) return;
    // Written by the root logger with request_id first: the same line as the child logger would write.
    logger[level](
      {
        request_id: requestId,
        method,
        path,
        status: res.statusCode,
        duration_ms: Math.round(seconds * 1e4) / 10,
      },
      'request completed',
    );
  });
  return context;
}
