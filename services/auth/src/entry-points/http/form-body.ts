import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Language } from '@spam-check/contracts';
import { AppError, isJsonRequest, requestContext } from '@spam-check/service-kit';
import express, { type RequestHandler } from 'express';
import qs from 'qs';
import { sendOAuthError } from './oauth-errors';

const PARAMETER_LIMIT = 100;

/** `application/x-www-form-urlencoded`, alone or with `charset=utf-8` (RFC 6749 appendix B), any case. */
const PLAIN_FORM = /^application\/x-www-form-urlencoded\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/**
 * The common case read without body-parser: a UTF-8 form, not content-encoded. The same limit (413 by the
 * declared length up front, or once the received bytes pass it, after the rest of the upload is drained),
 * the same parameter limit and the same `qs` options as `express.urlencoded({extended: false})`, so the
 * same parsed body; only the type check, charset parsing and iconv decoding are skipped.
 */
function readPlainForm(
  req: IncomingMessage,
  limitBytes: number,
  done: (error: unknown, body?: unknown) => void,
): void {
  const declared = req.headers['content-length'];
  if (declared === undefined && req.headers['transfer-encoding'] === undefined) return done(undefined);
  const length = declared === undefined ? undefined : Number(declared);
  const tooLarge = () =>
    new AppError('PAYLOAD_TOO_LARGE', { internal: `form body over ${limitBytes} bytes` });
  if (length !== undefined && length > limitBytes) {
    // Like body-parser: answer once the upload has been read, not in the middle of it.
    req.on('end', () => done(tooLarge())).resume();
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const finish = (error: unknown, body?: unknown) => {
    if (finished) return;
    finished = true;
    req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
    done(error, body);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limitBytes) {
      req.off('data', onData).off('end', onEnd);
      req.on('end', () => finish(tooLarge())).resume();
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    if (length !== undefined && received !== length) return finish(new Error('request size did not match'));
    let text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // iconv-lite strips a BOM
    let body: unknown;
    try {
      body = parseForm(text);
    } catch (error) {
      return finish(error);
    }
    finish(undefined, body);
  };
  const onError = (error: unknown) => finish(error);
  const onAborted = () => finish(new Error('request aborted'));
  req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
}

/** body-parser 2's urlencoded parsing with `extended: false`, `parameterLimit: 100`; undefined past the limit. */
function parseForm(text: string): unknown {
  if (text.length === 0) return {};
  let count = 0;
  let index = -1;
  do {
    if (++count > PARAMETER_LIMIT) return undefined;
    index = text.indexOf('&', index + 1);
  } while (index !== -1);
  return qs.parse(text, {
    allowPrototypes: true,
    arrayLimit: count,
    depth: 0,
    charset: 'utf-8',
    parameterLimit: PARAMETER_LIMIT,
    strictDepth: true,
  });
}

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
 * (introspection is internal and lenient). Repeated parameters are refused (RFC 6749 §3.2). A UTF-8 form
 * without Content-Encoding (what every client sends) is read by `readPlainForm`; anything else (another
 * charset, a compressed body, JSON) goes through body-parser as before.
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
      const encoding = req.headers['content-encoding'];
      if (
        type !== undefined &&
        PLAIN_FORM.test(type) &&
        (encoding === undefined || encoding.toLowerCase() === 'identity')
      )
        return readPlainForm(req, limitBytes, (error, body) => resolve({ error, body }));
      const isForm = isFormRequest(req);
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
    if (error instanceof AppError || (error as { type?: string } | undefined)?.type === 'entity.too.large')
      throw error;
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
