import { randomUUID } from 'node:crypto';

const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The caller's request id when it is safe to log and echo, else a new one. */
export function requestIdOf(value: unknown): string {
  return typeof value === 'string' && SAFE_REQUEST_ID.test(value) ? value : randomUUID();
}
