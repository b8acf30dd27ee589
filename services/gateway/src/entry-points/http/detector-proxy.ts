import type http from 'node:http';
import { AppError, rawBodyOf, requestContext } from '@spam-check/service-kit';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  createProxyMiddleware,
  debugProxyErrorsPlugin,
  proxyEventsPlugin,
  type Plugin,
} from 'http-proxy-middleware';
import type { z } from 'zod';
import { forwardedHeaders } from '../../data-access/detectors';
import { interpretHttpAnswer } from '../../domain/detector-answer';
import { callerOf } from './authenticate';
import { removeHopByHopHeaders } from './hop-by-hop';

const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const DROPPED_HEADERS = ['authorization', 'cookie', 'content-encoding', 'x-client-id'];

interface Exchange {
  next: NextFunction;
  timer?: NodeJS.Timeout;
  done: boolean;
}

/**
 * Proxies a check request to a detector's `POST /v1/check` with http-proxy-middleware over a keep-alive
 * agent. The body was read by the kit's `rawJsonBody` (type, encoding, size and UTF-8 checked, not parsed) and
 * is written unchanged with the client's `Content-Type`: the detector validates it. Hop-by-hop headers, the
 * client's credentials and its `X-Client-Id` are not forwarded.
 *
 * The answer is buffered (`selfHandleResponse`) and judged before anything is sent: a result of the right
 * shape passes, a detector problem is re-issued, anything else is 502. `responseInterceptor` is not used:
 * it copies the detector's status and headers onto the response before the interceptor runs, so a bad answer
 * could no longer become the kit's problem. One deadline covers connect, headers and body (`proxyTimeout`
 * alone is an idle timeout, and turns into a "socket hang up" that cannot be told apart from a crash).
 * Connection failures are 503, the deadline 504.
 */
export function detectorProxy<S extends z.ZodType>(options: {
  name: string;
  url: string;
  agent: http.Agent;
  timeoutMs: number;
  schema: S;
  /** Called with each result passed on (usage counting); must not throw or wait. */
  onResult?: (res: Response, result: z.output<S>) => void;
}): RequestHandler {
  const exchanges = new WeakMap<http.IncomingMessage, Exchange>();

  const finish = (req: http.IncomingMessage, error: unknown, send?: () => void) => {
    const exchange = exchanges.get(req);
    if (!exchange || exchange.done) return;
    exchange.done = true;
    clearTimeout(exchange.timer);
    if (send) send();
    else exchange.next(error);
  };

  const proxy = createProxyMiddleware<Request, Response>({
    target: proxyTarget(new URL('/v1/check', options.url)),
    ignorePath: true,
    changeOrigin: true,
    agent: options.agent,
    selfHandleResponse: true,
    // The default plugins without `loggerPlugin`: it builds a URL per answer only to hand a line to a logger
    // that is a no-op here (errors are logged by the kit with the request id). `errorResponsePlugin` is not
    // loaded anyway since `on.error` is set.
    ejectPlugins: true,
    plugins: [debugProxyErrorsPlugin, proxyEventsPlugin] as unknown as Plugin<Request, Response>[],
    on: {
      proxyReq: (proxyReq, req, res) => {
        removeHopByHopHeaders(proxyReq, req.headers);
        for (const header of DROPPED_HEADERS) proxyReq.removeHeader(header);
        const context = requestContext(res);
        const forwarded = forwardedHeaders({
          requestId: context.requestId,
          language: context.language,
          clientId: callerOf(res).clientId,
        });
        for (const [name, value] of Object.entries(forwarded)) proxyReq.setHeader(name, value);
        proxyReq.setHeader('Accept', 'application/json');
        const body = rawBodyOf(res);
        proxyReq.setHeader('Content-Length', body.length);
        proxyReq.write(body);
        const exchange = exchanges.get(req);
        if (exchange)
          exchange.timer = setTimeout(() => {
            finish(
              req,
              new AppError('DETECTOR_TIMEOUT', {
                internal: `${options.name}: no answer within ${options.timeoutMs} ms`,
              }),
            );
            proxyReq.destroy();
          }, options.timeoutMs);
      },
      proxyRes: (proxyRes, req, res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        proxyRes.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        });
        proxyRes.on('error', (error) =>
          finish(
            req,
            new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: `${options.name} answer broke` }),
          ),
        );
        proxyRes.on('end', () => {
          if (size > MAX_ANSWER_BYTES) {
            finish(
              req,
              new AppError('BAD_DETECTOR_RESPONSE', { internal: `${options.name}: answer too large` }),
            );
            return;
          }
          const body = Buffer.concat(chunks);
          let result: z.output<S>;
          try {
            result = interpretHttpAnswer(options.schema, proxyRes.statusCode ?? 0, body, options.name);
          } catch (error) {
            finish(req, error);
            return;
          }
          finish(req, undefined, () => {
            res.writeHead(200, {
              'Content-Type': 'application/json; charset=utf-8',
              'Content-Length': body.length,
            });
            res.end(body);
            options.onResult?.(res, result);
          });
        });
      },
      error: (error, req) => {
        finish(
          req,
          new AppError('SERVICE_UNAVAILABLE', {
            cause: error,
            internal: `${options.name} unreachable: ${(error as NodeJS.ErrnoException).code ?? error.message}`,
          }),
        );
      },
    },
  });

  return (req, res, next) => {
    exchanges.set(req, { next, done: false });
    res.on('close', () => {
      const exchange = exchanges.get(req);
      if (exchange && !exchange.done) {
        exchange.done = true;
        clearTimeout(exchange.timer);
      }
    });
    proxy(req, res, next).catch(next);
  };
}

/** The target as http-proxy uses it, built once (a string target is parsed again on every request). */
function proxyTarget(url: URL) {
  return {
    protocol: url.protocol,
    host: url.host,
    hostname: url.hostname,
    port: url.port,
    path: url.pathname,
  };
}
