import type { Language } from '@spam-check/contracts';
import type { Response } from 'express';
import type { Logger } from 'pino';

/** What the kit attaches to every request: read it with `requestContext(res)`. */
export interface RequestContext {
  requestId: string;
  language: Language;
  log: Logger;
  startedAt: bigint;
}

export function requestContext(res: Response): RequestContext {
  return res.locals.context as RequestContext;
}

/** Milliseconds since the request arrived, rounded to 0.1 ms. */
export function elapsedMs(context: RequestContext): number {
  return Math.round(Number(process.hrtime.bigint() - context.startedAt) / 1e5) / 10;
}
