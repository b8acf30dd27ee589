import type { CheckMemory } from '@spam-check/client-state';
import { AppError } from '@spam-check/service-kit';
import type { HybridParts } from '../domain/feedback';

// The parts of a hybrid check (the ids of its e-mail and text checks), kept under the hybrid check's id so
// that a report of it reaches both detectors. A store that fails is a 503, never a check without its parts.

const unavailable = (error: unknown) =>
  new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'hybrid check store unavailable' });

export async function rememberHybridParts(
  hybrids: CheckMemory,
  clientId: string,
  checkId: string,
  parts: HybridParts,
): Promise<void> {
  await hybrids.remember(clientId, checkId, JSON.stringify(parts)).catch((error: unknown) => {
    throw unavailable(error);
  });
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
