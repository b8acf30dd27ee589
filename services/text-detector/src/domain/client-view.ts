import type { FeedbackLabel } from '@spam-check/contracts';
import { campaignReporters, campaignSignatures } from './campaigns';
import type { ClientView } from './cascade';
import { encodeLearnable, lookupKeys, nearReports, weightsOf, type Learnable } from './client-feedback';
import { unavailable, type FeedbackMaps } from './feedback-maps';
import type { SparseVector } from './model/extractor';
import type { Fingerprint } from './near-duplicate';
import type { Learning } from './learn-from-report';

/**
 * What a check reads of its client's learnt state, and the record it keeps for a report on it. The rules:
 * - a check reads a bounded part of the client's maps: two reads (the band index entries of its fingerprint,
 *   and the weights of its strongest features with the cut offsets), and a third only when the index names a
 *   near-duplicate (the labels of at most LOOKED_UP_REPORTS of them, most similar first);
 * - a protecting client's check also reads the campaign memory under the text's campaign signatures
 *   (./campaigns.ts);
 * - nothing is cached in the process, so a report applies on every replica at once.
 */

/** Reports whose labels a check looks up when the index names several near-duplicates. */
const LOOKED_UP_REPORTS = 8;

export async function lookupClientView(
  maps: FeedbackMaps,
  learning: Pick<Learning, 'campaigns'>,
  client: string,
  fingerprint: Fingerprint,
  vector: SparseVector,
  protect: boolean,
): Promise<ClientView> {
  const keys = lookupKeys({ fingerprint }, vector);
  const campaignOf = async () => {
    if (!maps.campaigns || !learning.campaigns) return 0;
    const counts = await maps.campaigns.reporters(campaignSignatures(fingerprint));
    return campaignReporters(counts, learning.campaigns.minClients);
  };
  const [indexed, found, campaign] = await Promise.all([
    maps.bands.getMany(client, keys.bands),
    maps.weights.getMany(client, keys.features),
    protect ? campaignOf() : 0,
  ]).catch(unavailable);
  const near = nearReports(fingerprint, indexed);
  const reported = near.length === 0 ? undefined : await labelOf(maps, client, near).catch(unavailable);
  return { reported, weights: weightsOf(keys.features, found), campaign };
}

async function labelOf(maps: FeedbackMaps, client: string, near: string[]) {
  const labels = await maps.reports.getMany(client, near.slice(0, LOOKED_UP_REPORTS));
  return labels.find((label) => label !== undefined) as FeedbackLabel | undefined;
}

/** Keeps what a report on this check would learn from ('' when it teaches nothing). */
export async function rememberCheck(
  maps: FeedbackMaps,
  client: string,
  checkId: string,
  learnable: () => Learnable | null,
): Promise<void> {
  const value = learnable();
  await maps.checks
    .remember(client, checkId, value === null ? '' : encodeLearnable(value))
    .catch(unavailable);
}
