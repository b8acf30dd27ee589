import { timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { basicAuthorization } from '@spam-check/client';
import { errorMessages, oauthErrorDescription } from '@spam-check/contracts';
import { requestContext, clientAddress } from '@spam-check/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { removeHopByHopHeaders, replaceHopByHopAnswerHeaders } from '../../data-access/hop-by-hop';

/**
 * `/oauth/token` and `/oauth/revoke`, proxied to the auth service as they are: the form body is streamed,
 * never parsed here, and the answer (RFC 6749 JSON, `Cache-Control: no-store`) is passed through.
 * `X-Forwarded-For` is replaced by the one client address the gateway vouches for (`clientAddress`), so
 * auth trusts exactly one hop and a client cannot choose the address its failed logins count against;
 * `Accept-Language` carries the language of the path prefix. When the auth service cannot be reached the
 * answer is an RFC 6749-shaped `temporarily_unavailable` with 503 and Retry-After, since token clients parse
 * `error`. The operator console is a proxy of its own: a call authenticated as its OAuth client (`console`,
 * the very credentials, compared in constant time) names the browser's address as the last entry of
 * `X-Forwarded-For`, and that address is the one passed on.
 */
export function oauthProxy(options: {
  authUrl: string;
  agent: http.Agent;
  timeoutMs: number;
  trustedProxyHops: number;
  console?: { id: string; secret: string } | undefined;
}): RequestHandler {
  const consoleCredentials =
    options.console &&
    Buffer.from(basicAuthorization({ clientId: options.console.id, clientSecret: options.console.secret }));
  const fromConsole = (req: Request) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    return (
      consoleCredentials !== undefined &&
      given.length === consoleCredentials.length &&
      timingSafeEqual(given, consoleCredentials)
    );
  };
  const proxy = createProxyMiddleware<Request, Response>({
    target: options.authUrl,
    changeOrigin: true,
    xfwd: false,
    agent: options.agent,
    proxyTimeout: options.timeoutMs,
    on: {
      proxyReq: (proxyReq, req, res) => {
        removeHopByHopHeaders(proxyReq, req.headers);
        const context = requestContext(res);
        proxyReq.setHeader('X-Request-Id', context.requestId);
        proxyReq.setHeader('Accept-Language', context.language);
        const hops = fromConsole(req) ? 1 : options.trustedProxyHops;
        proxyReq.setHeader('X-Forwarded-For', clientAddress(req, hops));
      },
      proxyRes: (proxyRes, req, res) => replaceHopByHopAnswerHeaders(proxyRes, req, res),
      error: (error, _req, res) => {
        const response = res as Response;
        const context = requestContext(response);
        context.log.error({ err: error, code: 'SERVICE_UNAVAILABLE' }, 'auth service unreachable');
        if (response.headersSent) {
          response.destroy();
          return;
        }
        response
          .status(503)
          .set({ 'Retry-After': '5', 'Cache-Control': 'no-store', Pragma: 'no-cache' })
          .json({
            error: 'temporarily_unavailable',
            error_description: oauthErrorDescription(
              errorMessages('SERVICE_UNAVAILABLE', context.language).detail,
            ),
          });
      },
    },
  });
  return proxy;
}
