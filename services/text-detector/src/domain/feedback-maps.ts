import type { FeedbackLabel } from '@spam-check/contracts';
import { AppError } from '@spam-check/service-kit';

/**
 * The client state the text detector learns into and reads from, as maps (kept by
 * ../data-access/text-feedback-store.ts): per client, the check records (what a report on a check would learn
 * from, for the retention time) and four capped maps: the reports (fingerprint → label), an index of the
 * reports by LSH band, the adjustment's weights, and the canonical texts of the reports (read by `feedback
 * export` only); and the deployment's campaign memory. What is read and written is decided in
 * ./learn-from-report.ts and ./client-view.ts.
 */
export interface FeedbackMaps {
  checks: {
    remember(client: string, checkId: string, value: string): Promise<void>;
    recall(client: string, checkId: string): Promise<string | undefined>;
  };
  reports: FeedbackMap;
  bands: FeedbackMap;
  weights: FeedbackMap;
  texts: FeedbackMap;
  campaigns?: {
    /** `source`: the report's key in `reports`. */
    report(
      client: string,
      signatures: readonly string[],
      label: FeedbackLabel,
      source: string,
    ): Promise<void>;
    /** `reports` dropped the report `source` (its cap): its signatures stop counting for the client. */
    withdrawDropped(client: string, signatures: readonly string[], source: string): Promise<void>;
    /** How many distinct sharing clients reported each signature, in the order given. */
    reporters(signatures: readonly string[]): Promise<number[]>;
  };
}

/** One capped map per client. */
export interface FeedbackMap {
  /** The values of `keys`, in their order (one read, however many keys). */
  getMany(client: string, keys: readonly string[]): Promise<(string | undefined)[]>;
  /** Answers the entries the cap dropped, oldest first. */
  update(client: string, entries: readonly (readonly [string, string])[]): Promise<[string, string][]>;
}

/** A store failure is a down dependency: 503, never a verdict or a report without the client's state. */
export function unavailable(error: unknown): never {
  if (error instanceof AppError) throw error;
  throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'feedback store unavailable' });
}
