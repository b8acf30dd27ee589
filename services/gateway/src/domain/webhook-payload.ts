import {
  reviewItemSchema,
  type FeedbackLabel,
  type ReviewItem,
  type WebhookEvent,
  type WebhookPayload,
} from '@spam-check/contracts';
import { reviewItemOf, type CheckedItem } from './review-item';

/**
 * The body of a delivery: its `data` is always a review item, as `GET /api/v1/checks` lists it, so that a
 * site handles a delivery and a listed check alike. Every payload is built here and checked against the
 * review item's schema.
 */
export function webhookPayload(type: string, item: ReviewItem, at: Date): WebhookPayload {
  return { type, timestamp: at.toISOString(), data: reviewItemSchema.parse(item) };
}

/** A check just answered; the event it raises, if any (`ham` raises none), with its review item. */
export function checkEvent(
  { checked, submitted }: CheckedItem,
  options: { keepsContent: boolean; at: Date },
): { type: WebhookEvent; item: ReviewItem } | undefined {
  const { verdict } = checked.result;
  if (verdict === 'ham') return undefined;
  return {
    type: verdict === 'spam' ? 'check.spam' : 'check.suspicious',
    item: reviewItemOf(checked, submitted, options),
  };
}

/** A report just applied to a listed check: its review item, carrying that report. */
export function feedbackEvent(
  item: ReviewItem,
  report: { label: FeedbackLabel; at: Date },
): { type: WebhookEvent; item: ReviewItem } {
  return {
    type: 'feedback.received',
    item: { ...item, report: { label: report.label, at: report.at.toISOString() } },
  };
}

/** What "Send test event" delivers: a review item of the right shape that no check produced. */
export function testItem(at: Date): ReviewItem {
  return {
    id: 'test',
    kind: 'text',
    created_at: at.toISOString(),
    verdict: 'spam',
    score: 1,
    reasons: [],
    language: null,
    report: null,
    content: null,
    preview: null,
  };
}
