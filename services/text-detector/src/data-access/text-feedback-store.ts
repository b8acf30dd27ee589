import type { FeedbackLabel } from '@spam-check/contracts';
import { AppError, type CheckMemory, type ClientMap } from '@spam-check/service-kit';
import type { TextFeedback } from '../domain/check-text';
import {
  decodeLearnable,
  encodeLearnable,
  learnFromReport,
  reportKeyOf,
  stateOf,
  type Calibration,
  type ClientState,
  type Learnable,
} from '../domain/client-feedback';

/**
 * The text detector's feedback storage: per client, check records (what a report would learn from, for the
 * retention time), the reports and the adjustment weights in one capped map (`state`), and the canonical
 * texts of the reports in another (`texts`, read by `feedback export` only).
 *
 * Checks read a client's state from a cache in this process, valid while the client's version in the store
 * is unchanged: one small read per check (the version), and a reload of the client's entries only after it
 * reported something, on any replica. The cache holds at most `cachedClients` clients (least recently used
 * goes).
 */
export interface TextFeedbackStore extends TextFeedback {
  /** false when the client has no such check (unknown, expired or another client's). */
  reportCheck(client: string, checkId: string, label: FeedbackLabel): Promise<boolean>;
  reportText(client: string, learnable: Learnable | null, label: FeedbackLabel): Promise<void>;
  /** The reported texts of a client (canonical form), oldest first. */
  reportedTexts(
    client: string,
  ): Promise<{ title: string; body: string; language: string | null; label: FeedbackLabel }[]>;
  clients(): Promise<string[]>;
}

export interface TextFeedbackStoreOptions {
  checks: CheckMemory;
  state: ClientMap;
  texts: ClientMap;
  calibration: Calibration;
  maxReports: number;
  maxWeights: number;
  cachedClients: number;
}

function unavailable(error: unknown): never {
  if (error instanceof AppError) throw error;
  throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'feedback store unavailable' });
}

export function createTextFeedbackStore(options: TextFeedbackStoreOptions): TextFeedbackStore {
  const { checks, state, texts } = options;
  const cache = new Map<string, { version: number; state: ClientState }>();

  const load = async (client: string): Promise<ClientState> => {
    const version = await state.version(client);
    const cached = cache.get(client);
    cache.delete(client);
    if (cached && cached.version === version) {
      cache.set(client, cached);
      return cached.state;
    }
    const fresh = stateOf(version === 0 ? [] : await state.all(client));
    cache.set(client, { version, state: fresh });
    if (cache.size > options.cachedClients) cache.delete(cache.keys().next().value as string);
    return fresh;
  };

  const report = async (client: string, learnable: Learnable | null, label: FeedbackLabel) => {
    if (learnable === null) return;
    const change = learnFromReport(await load(client), learnable, label, options.calibration, options);
    await state.update(client, change.write, change.remove);
    const { title, body } = learnable.text;
    const key = reportKeyOf(learnable.fingerprint);
    await texts.update(client, [[key, JSON.stringify({ title, body, language: learnable.language, label })]]);
  };

  return {
    stateOf: (client) => load(client).catch(unavailable),
    async remember(client, checkId, learnable) {
      const value = learnable();
      await checks.remember(client, checkId, value === null ? '' : encodeLearnable(value)).catch(unavailable);
    },
    async reportCheck(client, checkId, label) {
      const record = await checks.recall(client, checkId).catch(unavailable);
      if (record === undefined) return false;
      await report(client, record === '' ? null : decodeLearnable(record), label).catch(unavailable);
      return true;
    },
    reportText: (client, learnable, label) => report(client, learnable, label).catch(unavailable),
    async reportedTexts(client) {
      return (await texts.all(client)).map(
        ([, value]) => JSON.parse(value) as Awaited<ReturnType<TextFeedbackStore['reportedTexts']>>[number],
      );
    },
    clients: () => texts.clients(),
  };
}
