/**
 * Feedback (DESIGN.md §6.1, `POST /api/v1/spam/feedback`). Written here from the design until the contracts
 * package carries the feedback schemas; then these types come from there.
 */
export type FeedbackLabel = 'spam' | 'ham';

export type FeedbackRequest =
  | { check_id: string; label: FeedbackLabel }
  | { email: string; label: FeedbackLabel }
  | { title: string; body: string; sub_title?: string; label: FeedbackLabel };

export interface FeedbackResult {
  id: string;
  check_id: string | null;
  label: FeedbackLabel;
  applied_to: ('email' | 'text')[];
  request_id: string;
}
