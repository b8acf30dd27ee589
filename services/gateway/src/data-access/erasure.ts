import { detectorErasureAnswerSchema, type ErasureRequest, type FeedbackPart } from '@spam-check/contracts';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import type { CheckMemory } from '@spam-check/client-state';
import { AppError } from '@spam-check/service-kit';
import type { CallMeta } from '../domain/hybrid-check';
import { callDetector, type HttpDetector } from './detector-client';
import type { Review } from './review';
import { addressHash } from './review-recorder';
import type { UsageStore } from './usage-store';
import type { WebhookDeliveryLog } from './webhook-deliveries';
import type { WebhookSecrets } from './webhook-secrets';

export type EraseData = (request: ErasureRequest, meta: CallMeta) => Promise<Record<string, number>>;

/**
 * Erasure across the deployment (docs/design.md, Privacy and erasure): each detector erases what it keeps
 * (`POST /v1/erasure`), and the gateway erases its own: for an address the review list's checks of it, for a
 * client its hybrid check records, review list (content included), recent reports, settings, webhook secrets
 * and delivery logs. Kept: the
 * aggregate usage counts and the admin actions (the audit trail of who did what, which also records this
 * erasure). All stores are asked at once; when one cannot answer the whole erasure is a 503, and repeating it
 * is safe.
 */
export function createDataEraser(deps: {
  detectors: Record<FeedbackPart, HttpDetector>;
  hybrids: CheckMemory;
  usage: UsageStore | undefined;
  settings: ClientSettingsStore | undefined;
  webhooks?: { secrets: WebhookSecrets; deliveries: WebhookDeliveryLog } | undefined;
  review: Pick<Review, 'store' | 'addressKey'>;
  timeoutMs: number;
}): EraseData {
  const inDetector = async (part: FeedbackPart, request: ErasureRequest, meta: CallMeta) =>
    (
      await callDetector(deps.detectors[part], {
        path: '/v1/erasure',
        schema: detectorErasureAnswerSchema,
        body: { json: request },
        meta,
        timeoutMs: deps.timeoutMs,
      })
    ).result.erased;
  const eraseWebhooks = async (client: string): Promise<Record<string, number>> => {
    if (!deps.webhooks || !deps.settings) return {};
    const hooks = (await deps.settings.read(client)).webhooks?.map((hook) => hook.id) ?? [];
    const [secrets, deliveries] = await Promise.all([
      deps.webhooks.secrets.eraseClient(client),
      deps.webhooks.deliveries.remove(client, hooks),
    ]);
    return { webhook_secrets: secrets, webhook_deliveries: deliveries };
  };
  const inGateway = async (request: ErasureRequest): Promise<Record<string, number>> => {
    if (!('client_id' in request))
      return {
        review_checks: await deps.review.store.eraseEmail(addressHash(deps.review.addressKey, request.email)),
      };
    const client = request.client_id;
    // The webhooks' own data first: their ids are in the settings erased below.
    const webhooks = await eraseWebhooks(client);
    const [hybrids, review, recent, settings] = await Promise.all([
      deps.hybrids.eraseClient(client),
      deps.review.store.eraseClient(client),
      deps.usage?.eraseRecentFeedback(client),
      deps.settings?.remove(client),
    ]);
    return {
      hybrid_check_records: hybrids,
      review_checks: review,
      ...(recent === undefined ? {} : { recent_feedback: recent }),
      ...(settings === undefined ? {} : { client_settings: settings }),
      ...webhooks,
    };
  };
  return async (request, meta) => {
    const parts = await Promise.all([
      inDetector('email', request, meta),
      inDetector('text', request, meta),
      inGateway(request).catch((error: unknown) => {
        throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'gateway stores not erased' });
      }),
    ]);
    return parts.reduce<Record<string, number>>((all, part) => Object.assign(all, part), {});
  };
}
