import type http from 'node:http';
import { DEFAULT_SCOPE } from '@spam-check/contracts';
import { type AppError, type Counter, clientAddress } from '@spam-check/service-kit';
import type { RequestHandler, Response } from 'express';
import { authorize, bearerToken, missingToken, type Caller } from '../../domain/authorization';
import type { Introspection } from '@spam-check/contracts';
import type { TokenIntrospector } from '../../data-access/introspection';
import type { FailedTokenLimit } from '../../domain/failed-token-limit';

export function callerOf(res: Response): Caller {
  return res.locals.caller as Caller;
}

/**
 * Bearer token validation (RFC 6750) by introspection, for `scope` (`spam:check` unless told otherwise):
 * the caller, or a rejection with the refusal's AppError (counted in `refusals`).
 * Tokens the auth service does not know are counted per client address (`failedTokenLimit`).
 */
export function bearerAuthentication(
  introspector: TokenIntrospector,
  failedTokens: FailedTokenLimit,
  refusals: Counter<'code'>,
  trustedProxyHops: number,
  scope: string = DEFAULT_SCOPE,
): (req: http.IncomingMessage) => Promise<Caller> {
  return async (req) => {
    try {
      const token = bearerToken(req.headers.authorization);
      if (!token) throw missingToken();
      // The client's address only when the auth service must be asked (not on a cache hit).
      let address: string | undefined;
      let done = () => {};
      let introspection: Introspection;
      try {
        introspection = await introspector.introspect(token, () => {
          address = clientAddress(req, trustedProxyHops);
          done = failedTokens.admit(address);
        });
      } finally {
        done();
      }
      if (address !== undefined && !introspection.active) await failedTokens.record(address);
      return authorize(introspection, scope, Math.floor(Date.now() / 1000));
    } catch (error) {
      refusals.inc({ code: (error as AppError).code });
      throw error;
    }
  };
}

/** `bearerAuthentication` as Express middleware: the caller is kept for `callerOf`. */
export function authenticate(
  authenticateBearer: (req: http.IncomingMessage) => Promise<Caller>,
): RequestHandler {
  return (req, res, next) => {
    authenticateBearer(req).then((caller) => {
      res.locals.caller = caller;
      next();
    }, next);
  };
}
