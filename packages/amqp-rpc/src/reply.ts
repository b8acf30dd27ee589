/** What a failed handler reports: a catalogue `code`, an HTTP-like `status`, and optional extra fields. */
export interface RpcProblem {
  code: string;
  status: number;
  [field: string]: unknown;
}

/** The reply envelope on the wire (JSON). */
export type RpcReply<T = unknown> = { ok: true; result: T } | { ok: false; problem: RpcProblem };

export const INTERNAL_PROBLEM: RpcProblem = Object.freeze({ code: 'INTERNAL_ERROR', status: 500 });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isProblem(value: unknown): value is RpcProblem {
  return isRecord(value) && typeof value.code === 'string' && typeof value.status === 'number';
}

/**
 * Maps what a handler threw to the problem sent back: `error.toRpcProblem()` if the error has it, else
 * `error.problem` if that is a problem, else a bare INTERNAL_ERROR (the message is logged, never sent).
 */
export function problemFromError(error: unknown): RpcProblem | undefined {
  if (!isRecord(error)) return undefined;
  if (typeof error.toRpcProblem === 'function') {
    const problem: unknown = (error.toRpcProblem as () => unknown)();
    if (isProblem(problem)) return problem;
  }
  if (isProblem(error.problem)) return error.problem;
  return undefined;
}

/** Serialises a reply; a result JSON cannot represent (BigInt, cycles) becomes an INTERNAL_ERROR reply. */
export function encodeReply(reply: RpcReply): Buffer {
  try {
    return Buffer.from(JSON.stringify(reply));
  } catch {
    return Buffer.from(JSON.stringify({ ok: false, problem: INTERNAL_PROBLEM }));
  }
}

/** Parses a reply envelope; anything that is not one is reported as an INTERNAL_ERROR problem. */
export function decodeReply(content: Buffer): RpcReply {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.toString('utf8'));
  } catch {
    return { ok: false, problem: { ...INTERNAL_PROBLEM, detail: 'malformed RPC reply' } };
  }
  if (isRecord(parsed) && parsed.ok === true) return { ok: true, result: parsed.result };
  if (isRecord(parsed) && parsed.ok === false && isProblem(parsed.problem)) {
    return { ok: false, problem: parsed.problem };
  }
  return { ok: false, problem: { ...INTERNAL_PROBLEM, detail: 'malformed RPC reply' } };
}
