import { AppError, isJsonRequest } from '@spam-check/service-kit';
import type { RequestHandler, Response } from 'express';

/**
 * The body of a mail or text check, read as bytes and forwarded unchanged: the detector parses and validates
 * it with the same contract schemas and limits (its 400 problems come back and are re-issued in the caller's
 * language), so the gateway does not parse it a second time. What the gateway enforces before any detector
 * is called:
 * - a JSON content type (`application/json`, `application/*+json`), else 415;
 * - at most `limit` bytes on the wire, by `Content-Length` at once or by counting a chunked body, else 413
 *   (the rest of an oversized body is drained, not kept).
 */
export function rawJsonBody(limit: number): RequestHandler {
  return (req, res, next) => {
    if (!isJsonRequest(req)) return next(new AppError('UNSUPPORTED_MEDIA_TYPE'));
    if (Number(req.headers['content-length']) > limit) return next(tooLarge(limit));
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error?: AppError) => {
      if (settled) return;
      settled = true;
      if (error) return next(error);
      (res.locals as { rawBody?: Buffer }).rawBody = Buffer.concat(chunks, size);
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

const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', { internal: `body over MAX_BODY_BYTES (${limit} bytes)` });
