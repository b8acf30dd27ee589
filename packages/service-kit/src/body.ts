import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { AppError } from './errors';

/**
 * Reading a JSON request body, with plain `node:http` objects: the kit's parser uses it, the hot routes that
 * read their own bodies (the detectors' checks) and the gateway, which forwards mail and text bodies to the
 * detectors as bytes.
 * The rules, in this order:
 * - a JSON media type (`application/json`, `application/*+json`) without a charset or with `charset=utf-8`,
 *   else 415 UNSUPPORTED_MEDIA_TYPE (RFC 8259 §8.1: JSON exchanged between systems is UTF-8);
 * - no `Content-Encoding` but `identity`, else 415 UNSUPPORTED_CONTENT_ENCODING with `Accept-Encoding:
 *   identity` (RFC 9110 §15.5.16): compressed bodies are refused, not inflated, so a body is never larger in
 *   memory than on the wire and a corrupt stream cannot end in a 5xx;
 * - at most `limit` bytes, by `Content-Length` at once or by counting, else 413 PAYLOAD_TOO_LARGE (the rest of
 *   an oversized body is discarded, and the error answer closes the connection);
 * - valid UTF-8, else 400 MALFORMED_JSON: invalid sequences are never turned into U+FFFD and judged (a lone
 *   UTF-16 surrogate written as a `\u` escape is refused the same way once parsed, in `readJsonBody`).
 * Rejects with the AppError; resolves with the bytes, not parsed.
 */
export function readJsonBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  return readBody(req, limit, {
    add: (chunk) => {
      chunks.push(chunk);
      size += chunk.length;
    },
    finish: () => {
      const body = Buffer.concat(chunks, size);
      if (!isUtf8(body)) throw notUtf8();
      return body;
    },
  });
}

/**
 * `readJsonBytes`, decoded: each chunk is decoded as it comes in (a fatal, streaming UTF-8 decoder), so a
 * body of megabytes is never decoded in one piece of work that holds the event loop.
 */
function readJsonText(req: IncomingMessage, limit: number): Promise<string> {
  // The byte order mark is kept here and dropped by `readJsonBody`, as with the bytes.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let text = '';
  return readBody(req, limit, {
    add: (chunk) => {
      text += decoder.decode(chunk, { stream: true });
    },
    finish: () => text + decoder.decode(),
  });
}

/** What `readBody` does with the chunks of a body, and with their end; a throw is the body's refusal. */
interface BodySink<T> {
  add(chunk: Buffer): void;
  finish(): T;
}

/** The reading rules above, for a sink of the chunks. */
function readBody<T>(req: IncomingMessage, limit: number, sink: BodySink<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const refusal = headerRefusal(req, limit);
    if (refusal) return reject(refusal);
    let size = 0;
    let settled = false;
    const fail = (error: AppError) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (settled) return;
      if (size > limit) return fail(tooLarge(limit));
      try {
        sink.add(chunk);
      } catch (cause) {
        fail(notUtf8(cause));
      }
    });
    req.on('end', () => {
      if (settled) return;
      try {
        const body = sink.finish();
        settled = true;
        resolve(body);
      } catch (cause) {
        fail(cause instanceof AppError ? cause : notUtf8(cause));
      }
    });
    req.on('error', (error) =>
      fail(new AppError('VALIDATION_FAILED', { cause: error, internal: 'client aborted the body' })),
    );
  });
}

const notUtf8 = (cause?: unknown) =>
  new AppError('MALFORMED_JSON', { cause, internal: 'the body is not valid UTF-8' });

const BYTE_ORDER_MARK = 0xfeff;

/**
 * `readJsonText`, then `JSON.parse` (400 MALFORMED_JSON). An empty body is `{}`, and a leading byte order
 * mark is ignored (RFC 8259 §8.1 allows both readings; body-parser, used before, did the same).
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  let text = await readJsonText(req, limit);
  if (text.charCodeAt(0) === BYTE_ORDER_MARK) text = text.slice(1);
  if (text.length === 0) return {};
  try {
    // Only a `\uD800`-`\uDFFF` escape can carry a lone surrogate (the bytes are valid UTF-8): other bodies
    // are parsed without the reviver.
    return JSON.parse(text, SURROGATE_ESCAPE.test(text) ? refuseLoneSurrogates : undefined) as unknown;
  } catch (cause) {
    throw new AppError('MALFORMED_JSON', { cause });
  }
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A string (or key) with a lone surrogate is not text: it would be judged as U+FFFD, or break a store. */
function refuseLoneSurrogates(key: string, value: unknown): unknown {
  if (LONE_SURROGATE.test(key) || (typeof value === 'string' && LONE_SURROGATE.test(value)))
    throw new SyntaxError('a string holds a lone UTF-16 surrogate');
  return value;
}

/** The kit's JSON body parsing for POST-like requests (`readJsonBody` into `req.body`), as Express middleware. */
export function jsonBodyParser(limit: number): RequestHandler {
  return (req, _res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || req.method === 'DELETE')
      return next();
    readJsonBody(req, limit).then((body) => {
      req.body = body;
      next();
    }, next);
  };
}

const JSON_TYPE = /^application\/(?:json|[^\s;/]+\+json)\s*(?:;|$)/i;

/**
 * Whether the request has a body (a `Content-Length` or `Transfer-Encoding`) with a JSON media type
 * (`application/json`, `application/*+json`): what Express's `req.is(['application/json',
 * 'application/*+json'])` answers, without Express.
 */
export function isJsonRequest(req: IncomingMessage): boolean {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));
  return hasBody && JSON_TYPE.test(req.headers['content-type']?.trim() ?? '');
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

function headerRefusal(req: IncomingMessage, limit: number): AppError | undefined {
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
