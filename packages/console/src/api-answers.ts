import { ERROR_CATALOGUE, type ErrorCode } from '@spam-check/contracts';
import { AppError } from '@spam-check/service-kit';
import type { ApiAnswer } from './api';
import type { Panel } from './client-page';

/** The admin API no longer accepts the session's token (revoked elsewhere, client deleted): the session ends. */
export class SessionEnded extends Error {}

const knownCode = (code: unknown): code is ErrorCode => typeof code === 'string' && code in ERROR_CATALOGUE;

/**
 * What the console makes of an admin API answer: 2xx gives the body; 401 ends the session; any other problem
 * is thrown again with its own code (and field errors), so the page shows the catalogue's words for it.
 */
export function expectOk<T>(answer: ApiAnswer): T {
  if (answer.status >= 200 && answer.status < 300) return answer.body as T;
  if (answer.status === 401) throw new SessionEnded('the admin API refused the session token');
  const problem = answer.body as { code?: unknown; errors?: { path: string; message: string }[] } | undefined;
  throw new AppError(knownCode(problem?.code) ? problem.code : 'SERVICE_UNAVAILABLE', {
    ...(problem?.errors ? { errors: problem.errors } : {}),
    internal: `console: admin API answered ${answer.status}`,
  });
}

/** A panel whose data lives in Redis: 503 (embedded mode, Redis down) leaves it empty with a note. */
export function panel<T>(answer: ApiAnswer): Panel<T> {
  return answer.status === 503 ? { ok: false } : { ok: true, value: expectOk<T>(answer) };
}
