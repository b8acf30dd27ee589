import { bandKeys, encodeFingerprint, type Fingerprint } from './near-duplicate';

/**
 * Campaigns shared between clients (docs/design.md, Campaigns), the text detector's side. The rules:
 * - a text's signatures are the LSH bands of its fingerprint (./near-duplicate.ts); a short text, which only
 *   ever matches itself, has one signature, its whole fingerprint;
 * - a band counts once spam reports for it came from at least `minClients` distinct sharing clients;
 * - a long text is part of a reported campaign when at least CAMPAIGN_BANDS of its bands count (about a
 *   near-duplicate's similarity: one equal band is chance more often than three), a short one when its
 *   signature counts; the clients named are the most that reported one of those bands.
 */
const CAMPAIGN_BANDS = 3;

export function campaignSignatures(fingerprint: Fingerprint): string[] {
  return fingerprint.short
    ? [`text-exact:${encodeFingerprint(fingerprint)}`]
    : bandKeys(fingerprint.signature).map((band) => `text-band:${band}`);
}

/** How many clients reported the campaign of a text (0 when it is none), from its signatures' counts. */
export function campaignReporters(counts: readonly number[], minClients: number): number {
  const counting = counts.filter((count) => count >= minClients);
  const needed = counts.length === 1 ? 1 : CAMPAIGN_BANDS;
  return counting.length >= needed ? Math.max(...counting) : 0;
}
