import { DEFAULT_SCOPE } from '@spam-check/contracts';
import { type AppError, type Counter } from '@spam-check/service-kit';
import type { RequestHandler, Response } from 'express';
import { authorize, bearerToken, missingToken, type Caller } from '../../domain/authorization';
import type { TokenIntrospector } from '../../data-access/introspection';
import type { FailedTokenLimit } from '../../domain/failed-token-limit';
import { clientAddress } from './client-address';

export function callerOf(res: Response): Caller {
  return res.locals.caller as Caller;
}

/**
 * Bearer token validation (RFC 6750) by introspection, for `scope` (`spam:check` unless told otherwise); the
 * caller is kept for rate limits and forwarding.
 * Tokens the auth service does not know are counted per client address (`failedTokenLimit`).
 */
export function authenticate(
  introspector: TokenIntrospector,
  failedTokens: FailedTokenLimit,
  refusals: Counter<'code'>,
  trustedProxyHops: number,
  scope: string = DEFAULT_SCOPE,
): RequestHandler {
  return (req, res, next) => {
    const refuse = (error: unknown) => {
      refusals.inc({ code: (error as AppError).code });
      next(error);
    };
    const token = bearerToken(req.headers.authorization);
    if (!token) return refuse(missingToken());
    const address = clientAddress(req, trustedProxyHops);
    let asked = false;
    introspector
      .introspect(token, () => {
        failedTokens.check(address);
        asked = true;
      })
      .then(async (introspection) => {
        if (asked && !introspection.active) await failedTokens.record(address);
        res.locals.caller = authorize(introspection, scope, Math.floor(Date.now() / 1000));
      })
      .then(() => next(), refuse);
  };
}
