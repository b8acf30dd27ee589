import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Language } from '@spam-check/contracts';
import { AppError, isJsonRequest, requestContext } from '@spam-check/service-kit';
import express, { type RequestHandler } from 'express';
import { sendOAuthError } from './oauth-errors';

const PARAMETER_LIMIT = 100;

/** `application/x-www-form-urlencoded`, alone or with `charset=utf-8` (RFC 6749 appendix B), any case. */
const PLAIN_FORM = /^application\/x-www-form-urlencoded\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** What `read` resolves with when the body is neither a form nor admitted JSON. */
const FORM_REQUIRED = Symbol('form required');

const ANY_FORM = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/** What Express's `req.is('application/x-www-form-urlencoded')` answers: a body, of that media type. */
function isFormRequest(req: IncomingMessage): boolean {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));
  return hasBody && ANY_FORM.test(req.headers['content-type']?.trim() ?? '');
}

/**
 * RFC 6749 / 7009 endpoints take `application/x-www-form-urlencoded` only. A JSON (or any other) body gets an
 * OAuth `invalid_request` saying so, instead of the kit's 415 problem; `allowJson` admits JSON too
 * (introspection is internal and lenient). Repeated parameters are refused (RFC 6749 §3.2). Bodies are read
 * by Express's own parsers (`express.urlencoded`, `express.json`: body-parser), limits, charsets and
 * Content-Encoding included; a form of UTF-8 (RFC 6749 appendix B) without a body is an `invalid_request`.
 * Resolves with the parameters, or with undefined after answering the OAuth error itself; rejects with an
 * error for the kit (413) or a bug.
 */
export function formReader(
  limitBytes: number,
  options: { allowJson?: boolean } = {},
): (
  req: IncomingMessage,
  res: ServerResponse,
  language: Language,
) => Promise<Record<string, unknown> | undefined> {
  const form = express.urlencoded({ extended: false, limit: limitBytes, parameterLimit: PARAMETER_LIMIT });
  const json = express.json({ limit: limitBytes });
  const read = (req: IncomingMessage, res: ServerResponse) =>
    new Promise<{ error: unknown; body?: unknown }>((resolve) => {
      const type = req.headers['content-type'];
      const isForm = (type !== undefined && PLAIN_FORM.test(type)) || isFormRequest(req);
      if (!isForm && !(isJsonRequest(req) && options.allowJson)) return resolve({ error: FORM_REQUIRED });
      // body-parser reads plain Node requests too; it leaves the parameters in `req.body`.
      const parser = isForm ? form : json;
      parser(req, res, (error?: unknown) => resolve({ error, body: (req as { body?: unknown }).body }));
    });
  return async (req, res, language) => {
    const { error, body } = await read(req, res);
    if (error === FORM_REQUIRED) {
      sendOAuthError(res, { status: 400, error: 'invalid_request', description: 'form_required' }, language);
      return undefined;
    }
    if (error instanceof AppError) throw error;
    if ((error as { type?: string } | undefined)?.type === 'entity.too.large')
      throw new AppError('PAYLOAD_TOO_LARGE', {
        cause: error,
        internal: `form body over ${limitBytes} bytes`,
      });
    if (error || typeof body !== 'object' || body === null || Array.isArray(body)) {
      sendOAuthError(
        res,
        { status: 400, error: 'invalid_request', description: 'invalid_request' },
        language,
      );
      return undefined;
    }
    if (Object.values(body).some(Array.isArray)) {
      sendOAuthError(
        res,
        { status: 400, error: 'invalid_request', description: 'repeated_parameter' },
        language,
      );
      return undefined;
    }
    return body as Record<string, unknown>;
  };
}

/** `formReader` as Express middleware: the parameters in `req.body`. */
export function formBody(limitBytes: number, options: { allowJson?: boolean } = {}): RequestHandler {
  const readForm = formReader(limitBytes, options);
  return (req, res, next) => {
    readForm(req, res, requestContext(res).language).then((body) => {
      if (body === undefined) return;
      req.body = body;
      next();
    }, next);
  };
}
