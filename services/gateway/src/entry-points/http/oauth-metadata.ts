import { authorizationServerMetadata } from '@spam-check/contracts';
import type { Request, RequestHandler } from 'express';

/** The first value of a forwarded header that a trusted proxy set (the nearest proxy appends last). */
function forwarded(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  const text = Array.isArray(value) ? value.join(',') : value;
  const last = text?.split(',').at(-1)?.trim();
  return last === '' ? undefined : last;
}

/**
 * The origin clients reached: `X-Forwarded-Proto` and `X-Forwarded-Host` count only behind trusted proxies
 * (TRUSTED_PROXY_HOPS above 0), else the connection's own scheme and the Host header. RFC 8414 clients
 * compare the issuer with the address they asked, so it is never a configured guess.
 */
function issuerOf(req: Request, trustedProxyHops: number): string {
  const behindProxy = trustedProxyHops > 0;
  const scheme =
    (behindProxy && forwarded(req, 'x-forwarded-proto')) ||
    ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
  const host = (behindProxy && forwarded(req, 'x-forwarded-host')) || req.headers.host || 'localhost';
  return `${scheme}://${host}`;
}

/** GET /.well-known/oauth-authorization-server (RFC 8414): public, cacheable for a while. */
export function oauthMetadata(trustedProxyHops: number): RequestHandler {
  return (req, res) => {
    res
      .set('Cache-Control', 'public, max-age=3600')
      .json(authorizationServerMetadata(issuerOf(req, trustedProxyHops)));
  };
}
