import { timingSafeEqual } from 'node:crypto';
import { AppError } from '@spam-check/service-kit';
import express, { type Request, type RequestHandler } from 'express';

/**
 * On every console answer (pages, redirects, errors, assets): no framing (`frame-ancestors 'none'` and
 * X-Frame-Options for old browsers), scripts and styles from the gateway's own files only (no inline code,
 * no eval, so an injected `<script>` cannot run), forms post only to the console, no referrer leaves it.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.set({
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  });
  next();
};

/**
 * A change must come from a page of this console: the browser's `Origin` names this host (a missing Origin
 * is refused; browsers send it with every POST). Sign-in is checked this way alone, since no session exists
 * yet to tie a token to; SameSite=Strict keeps the session cookie off cross-site requests as well.
 */
export function checkOrigin(req: Request): void {
  const origin = req.headers.origin;
  let host: string | undefined;
  try {
    host = origin ? new URL(origin).host : undefined;
  } catch {
    host = undefined;
  }
  if (!host || host !== req.headers.host)
    throw new AppError('CSRF_REJECTED', {
      internal: `console: origin ${origin ?? '(none)'} is not ${req.headers.host}`,
    });
}

/** The synchronizer token of the session, from the posted form, compared in constant time. */
export function checkCsrfToken(posted: unknown, expected: string): void {
  const given = Buffer.from(typeof posted === 'string' ? posted : '');
  const wanted = Buffer.from(expected);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted))
    throw new AppError('CSRF_REJECTED', { internal: 'console: wrong or missing csrf token' });
}

/**
 * The console's forms (`application/x-www-form-urlencoded`, at most `fields` fields and `maxBytes`). What the
 * parser refuses becomes the catalogue's problem: too large or too many fields 413, another charset 415, else
 * 400.
 */
export function formBody(maxBytes: number, fields = 50): RequestHandler {
  const parse = express.urlencoded({ extended: false, limit: maxBytes, parameterLimit: fields });
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (!error) return next();
      const status = (error as { status?: number }).status;
      next(
        status === 413
          ? new AppError('PAYLOAD_TOO_LARGE', { cause: error })
          : status === 415
            ? new AppError('UNSUPPORTED_MEDIA_TYPE', { cause: error })
            : new AppError('VALIDATION_FAILED', {
                cause: error,
                errors: [{ path: '(body)', message: 'not a readable form' }],
              }),
      );
    });
}
