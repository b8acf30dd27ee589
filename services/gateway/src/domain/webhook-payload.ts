import type { Verdict, WebhookEvent } from '@spam-check/contracts';

/**
 * The `data` of a delivery: a check as the review list shows it. Built here only, so that it follows the
 * review item's shape in one place.
 */
export interface WebhookItem {
  id: string | null;
  kind: 'mail' | 'text' | 'hybrid' | null;
  created_at: string | null;
  verdict: Verdict | null;
  score: number | null;
  reasons: string[];
  language: string | null;
  report: { label: 'spam' | 'ham'; at: string } | null;
  content: null;
  preview: null;
}

export interface CheckedResult {
  id: string;
  verdict: Verdict;
  score: number;
  reasons: { code: string }[];
  language?: string | null;
}

/** A check just answered; the event it raises, if any (`ham` raises none). */
export function checkEvent(
  kind: 'mail' | 'text' | 'hybrid',
  result: CheckedResult,
  at: Date,
): { type: WebhookEvent; item: WebhookItem } | undefined {
  if (result.verdict === 'ham') return undefined;
  return {
    type: result.verdict === 'spam' ? 'check.spam' : 'check.suspicious',
    item: {
      id: result.id,
      kind,
      created_at: at.toISOString(),
      verdict: result.verdict,
      score: result.score,
      reasons: result.reasons.map((reason) => reason.code),
      language: result.language ?? null,
      report: null,
      content: null,
      preview: null,
    },
  };
}

/**
 * A report just accepted: the item of the check it was about, as far as the gateway knows it when the
 * report arrives (the check's id and the report; the verdict fields are those of the review list, null here).
 */
export function feedbackEvent(report: { check_id: string | null; label: 'spam' | 'ham'; at: Date }): {
  type: WebhookEvent;
  item: WebhookItem;
} {
  return {
    type: 'feedback.received',
    item: {
      id: report.check_id,
      kind: null,
      created_at: null,
      verdict: null,
      score: null,
      reasons: [],
      language: null,
      report: { label: report.label, at: report.at.toISOString() },
      content: null,
      preview: null,
    },
  };
}

/** What "Send test event" delivers: an item of the right shape that no check produced. */
export function testItem(at: Date): WebhookItem {
  return {
    id: null,
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
