import { randomUUID } from 'node:crypto';
import type { CheckMemory } from '@spam-check/client-state';
import type { HybridResult } from '@spam-check/contracts';
import { AppError, elapsedMs, type RequestContext } from '@spam-check/service-kit';
import type { HybridParts } from '../domain/feedback';
import type { HybridVerdict } from '../domain/hybrid-check';

// The parts of a hybrid check (the ids of its e-mail and text checks), kept under the hybrid check's id so
// that a report of it reaches both detectors. A store that fails is a 503, never a check without its parts.

const unavailable = (error: unknown) =>
  new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'hybrid check store unavailable' });

async function rememberHybridParts(
  hybrids: CheckMemory,
  clientId: string,
  checkId: string,
  parts: HybridParts,
): Promise<void> {
  await hybrids.remember(clientId, checkId, JSON.stringify(parts)).catch((error: unknown) => {
    throw unavailable(error);
  });
}

/**
 * The result of a hybrid check just made: its verdict under a new check id, whose parts are remembered first
 * (a store that fails is a 503), with the request's id and its duration so far.
 */
export async function hybridResultOf(
  hybrids: CheckMemory,
  clientId: string,
  verdict: HybridVerdict,
  context: RequestContext,
): Promise<HybridResult> {
  const id = randomUUID();
  await rememberHybridParts(hybrids, clientId, id, {
    email: verdict.email.id,
    text: verdict.text?.id ?? null,
  });
  return Object.assign({ id }, verdict, { request_id: context.requestId, duration_ms: elapsedMs(context) });
}

export async function recallHybridParts(
  hybrids: CheckMemory,
  clientId: string,
  checkId: string,
): Promise<HybridParts | undefined> {
  const record = await hybrids.recall(clientId, checkId).catch((error: unknown) => {
    throw unavailable(error);
  });
  return record === undefined ? undefined : (JSON.parse(record) as HybridParts);
}
