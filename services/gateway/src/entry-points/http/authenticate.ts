import { DEFAULT_SCOPE } from '@spam-check/contracts';
import { type AppError, type Counter } from '@spam-check/service-kit';
import type { RequestHandler, Response } from 'express';
import { authorize, bearerToken, missingToken, type Caller } from '../../domain/authorization';
import type { TokenIntrospector } from '../../data-access/introspection';

export function callerOf(res: Response): Caller {
  return res.locals.caller as Caller;
}

/** Bearer token validation (RFC 6750) by introspection; the caller is kept for rate limits and forwarding. */
export function authenticate(introspector: TokenIntrospector, refusals: Counter<'code'>): RequestHandler {
  return (req, res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) {
      refusals.inc({ code: 'UNAUTHORIZED' });
      return next(missingToken());
    }
    introspector.introspect(token).then(
      (introspection) => {
        try {
          res.locals.caller = authorize(introspection, DEFAULT_SCOPE, Math.floor(Date.now() / 1000));
        } catch (error) {
          refusals.inc({ code: (error as AppError).code });
          return next(error);
        }
        next();
      },
      (error: unknown) => {
        refusals.inc({ code: (error as AppError).code });
        next(error);
      },
    );
  };
}
