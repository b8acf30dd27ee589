import { isUtf8 } from 'node:buffer';
import type { Request, RequestHandler, Response } from 'express';
import { AppError } from './errors';

/**
 * Reading a JSON request body: the kit's parser uses it, and so does the gateway, which forwards mail and text
 * bodies to the detectors as bytes. The rules, in this order:
 * - a JSON media type (`application/json`, `application/*+json`) without a charset or with `charset=utf-8`,
 *   else 415 UNSUPPORTED_MEDIA_TYPE (RFC 8259 §8.1: JSON exchanged between systems is UTF-8);
 * - no `Content-Encoding` but `identity`, else 415 UNSUPPORTED_CONTENT_ENCODING with `Accept-Encoding:
 *   identity` (RFC 9110 §15.5.16): compressed bodies are refused, not inflated, so a body is never larger in
 *   memory than on the wire and a corrupt stream cannot end in a 5xx;
 * - at most `limit` bytes, by `Content-Length` at once or by counting, else 413 PAYLOAD_TOO_LARGE (the rest of
 *   an oversized body is discarded, and the error handler closes the connection after its answer);
 * - valid UTF-8, else 400 MALFORMED_JSON: invalid sequences are never turned into U+FFFD and judged.
 */
export function rawJsonBody(limit: number): RequestHandler {
  return (req, res, next) => {
    const refusal = headerRefusal(req, limit);
    if (refusal) return next(refusal);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error?: AppError) => {
      if (settled) return;
      settled = true;
      if (error) return next(error);
      const body = Buffer.concat(chunks, size);
      if (!isUtf8(body))
        return next(new AppError('MALFORMED_JSON', { internal: 'the body is not valid UTF-8' }));
      (res.locals as { rawBody?: Buffer }).rawBody = body;
      next();
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        settle(tooLarge(limit));
      } else if (!settled) chunks.push(chunk);
    });
    req.on('end', () => settle());
    req.on('error', (error) =>
      settle(new AppError('VALIDATION_FAILED', { cause: error, internal: 'client aborted the body' })),
    );
  };
}

/** The bytes `rawJsonBody` read. */
export function rawBodyOf(res: Response): Buffer {
  return (res.locals as { rawBody: Buffer }).rawBody;
}

/** Whether the request has a body with a JSON media type (`application/json`, `application/*+json`). */
export function isJsonRequest(req: Request): boolean {
  return Boolean(req.is(['application/json', 'application/*+json']));
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

function headerRefusal(req: Request, limit: number): AppError | undefined {
  if (!isJsonRequest(req)) return new AppError('UNSUPPORTED_MEDIA_TYPE');
  const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8')
    return new AppError('UNSUPPORTED_MEDIA_TYPE', { internal: `charset ${charset}` });
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity')
    return new AppError('UNSUPPORTED_CONTENT_ENCODING', {
      headers: { 'Accept-Encoding': 'identity' },
      internal: `Content-Encoding ${encoding}`,
    });
  if (Number(req.headers['content-length']) > limit) return tooLarge(limit);
  return undefined;
}

const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', { internal: `body over MAX_BODY_BYTES (${limit} bytes)` });

const BYTE_ORDER_MARK = 0xfeff;

/**
 * The kit's JSON body parsing for POST-like requests: `rawJsonBody`'s rules, then `JSON.parse` (400
 * MALFORMED_JSON). An empty body is `{}`, and a leading byte order mark is ignored (RFC 8259 §8.1 allows
 * both readings; body-parser, used before, did the same).
 */
export function jsonBodyParser(limit: number): RequestHandler {
  const read = rawJsonBody(limit);
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || req.method === 'DELETE')
      return next();
    read(req, res, (error?: unknown) => {
      if (error) return next(error);
      let text = rawBodyOf(res).toString('utf8');
      if (text.charCodeAt(0) === BYTE_ORDER_MARK) text = text.slice(1);
      try {
        req.body = text.length === 0 ? {} : (JSON.parse(text) as unknown);
      } catch (cause) {
        return next(new AppError('MALFORMED_JSON', { cause }));
      }
      next();
    });
  };
}
