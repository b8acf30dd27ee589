import { requestContext } from '@spam-check/service-kit';
import express, { type RequestHandler } from 'express';
import { sendOAuthError } from './oauth-errors';

/**
 * RFC 6749 / 7009 endpoints take `application/x-www-form-urlencoded` only. A JSON (or any other) body gets an
 * OAuth `invalid_request` saying so, instead of the kit's 415 problem; `allowJson` admits JSON too
 * (introspection is internal and lenient). Repeated parameters are refused (RFC 6749 §3.2).
 */
export function formBody(limitBytes: number, options: { allowJson?: boolean } = {}): RequestHandler {
  const form = express.urlencoded({ extended: false, limit: limitBytes, parameterLimit: 100 });
  const json = express.json({ limit: limitBytes });
  return (req, res, next) => {
    const language = requestContext(res).language;
    const isForm = Boolean(req.is('application/x-www-form-urlencoded'));
    const isJson = !isForm && Boolean(req.is(['application/json', 'application/*+json']));
    if (!isForm && !(isJson && options.allowJson)) {
      sendOAuthError(res, { status: 400, error: 'invalid_request', description: 'form_required' }, language);
      return;
    }
    const parse = isForm ? form : json;
    parse(req, res, (error?: unknown) => {
      if ((error as { type?: string } | undefined)?.type === 'entity.too.large') return next(error);
      const body = req.body as Record<string, unknown> | undefined;
      if (error || typeof body !== 'object' || body === null || Array.isArray(body)) {
        sendOAuthError(
          res,
          { status: 400, error: 'invalid_request', description: 'invalid_request' },
          language,
        );
        return;
      }
      if (Object.values(body).some(Array.isArray)) {
        sendOAuthError(
          res,
          { status: 400, error: 'invalid_request', description: 'repeated_parameter' },
          language,
        );
        return;
      }
      next();
    });
  };
}
