import type http from 'node:http';
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
 * `error`.
 */
export function oauthProxy(options: {
  authUrl: string;
  agent: http.Agent;
  timeoutMs: number;
  trustedProxyHops: number;
}): RequestHandler {
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
        proxyReq.setHeader('X-Forwarded-For', clientAddress(req, options.trustedProxyHops));
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
  return (req, res, next) => {
    proxy(req, res, next).catch(next);
  };
}
