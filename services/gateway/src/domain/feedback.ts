import type { FeedbackPart, FeedbackRequest } from '@spam-check/contracts';
import { AppError } from '@spam-check/service-kit';

/** The parts of a hybrid check, as the gateway keeps them for feedback (the detectors own the parts). */
export interface HybridParts {
  email: string;
  text: string | null;
}

/** Sends a report to the detector of a part: true when applied, false when it has no such check. */
export type SendFeedback = (part: FeedbackPart, body: object) => Promise<boolean>;

/**
 * Where a report goes (docs/design.md, Learning from reports). The rules:
 * - an address goes to the e-mail detector, a text to the text detector: each owns its reports;
 * - a check id of a hybrid result (kept here) goes, as the ids of its parts, to both detectors, or to the
 *   e-mail detector alone when the text was skipped; when the detector of one of its parts is known to be
 *   down, it goes to none (503 with Retry-After): a report is applied to all its parts or to none, and a
 *   retry applies it whole (a detector keeps one report per address and per text, so a part applied twice
 *   counts once);
 * - any other check id is a mail or a text check: both detectors are asked, and the one that knows it applies
 *   the report; when neither does (unknown, expired, another client's), it is CHECK_NOT_FOUND.
 */
export async function routeFeedback(
  request: FeedbackRequest,
  hybridParts: (checkId: string) => Promise<HybridParts | undefined>,
  send: SendFeedback,
  isDown: (part: FeedbackPart) => boolean,
): Promise<FeedbackPart[]> {
  const { label } = request;
  if ('email' in request) {
    await send('email', { email: request.email, label });
    return ['email'];
  }
  if (!('check_id' in request)) {
    await send('text', request);
    return ['text'];
  }
  const parts = await hybridParts(request.check_id);
  const asked: [FeedbackPart, string][] = parts
    ? [
        ['email', parts.email],
        ...(parts.text === null ? [] : [['text', parts.text] as [FeedbackPart, string]]),
      ]
    : [
        ['email', request.check_id],
        ['text', request.check_id],
      ];
  if (parts && asked.some(([part]) => isDown(part)))
    throw new AppError('SERVICE_UNAVAILABLE', {
      headers: { 'Retry-After': '1' },
      internal: 'a part of the hybrid check has its detector down: the report goes to none',
    });
  const found = await Promise.all(asked.map(([part, id]) => send(part, { check_id: id, label })));
  const applied = asked.filter((_, index) => found[index]).map(([part]) => part);
  if (applied.length === 0 || (parts && applied.length < asked.length)) throw new AppError('CHECK_NOT_FOUND');
  return applied;
}
