import type {
  HybridResult,
  MailResult,
  ReviewContent,
  ReviewItem,
  ReviewKind,
  ReviewPreview,
  TextResult,
} from '@spam-check/contracts';

/** What was submitted for a check, as far as the review list may keep it. */
export interface Submitted {
  email?: string | undefined;
  title?: string | undefined;
  body?: string | undefined;
  sub_title?: string | undefined;
}

export type CheckedResult =
  | { kind: 'mail'; result: MailResult }
  | { kind: 'text'; result: TextResult }
  | { kind: 'hybrid'; result: HybridResult };

/** The canonical preview keeps this many characters of a title and of a body. */
const PREVIEW_TITLE = 200;
const PREVIEW_BODY = 500;

const INVISIBLE = /[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]/g;
const LINK = /\b(?:https?:\/\/|www\.)\S+/giu;
const ADDRESS = /\S+@\S+\.\S+/gu;
const DIGIT = /\p{Nd}/gu;

/**
 * The canonical form of a text as a moderator's preview: the form the text detector learns from, not what was
 * written. Unicode NFKC, lower case, invisible characters gone, links and addresses replaced by placeholders,
 * digits by 0, spacing collapsed, shortened: enough to recognise a message, not to recover its links,
 * addresses or numbers.
 */
function canonicalPreview(text: string, limit: number): string {
  return text
    .slice(0, 4 * limit)
    .normalize('NFKC')
    .toLowerCase()
    .replace(INVISIBLE, '')
    .replace(LINK, 'urltok')
    .replace(ADDRESS, 'emailtok')
    .replace(DIGIT, '0')
    .replace(/\s+/gu, ' ')
    .trim()
    .slice(0, limit);
}

/**
 * What an item shows without the kept content: the canonical text of a text (or of a hybrid check's text),
 * and the domain of an address only when the client keeps content (its address is then kept anyway).
 */
function previewOf(
  checked: CheckedResult,
  submitted: Submitted,
  keepsContent: boolean,
): ReviewPreview | null {
  const preview: ReviewPreview = {};
  const mail =
    checked.kind === 'mail' ? checked.result : checked.kind === 'hybrid' ? checked.result.email : null;
  if (keepsContent && mail?.email.domain) preview.domain = mail.email.domain;
  if (checked.kind !== 'mail' && submitted.body !== undefined) {
    preview.title = canonicalPreview(submitted.title ?? '', PREVIEW_TITLE);
    preview.body = canonicalPreview(submitted.body, PREVIEW_BODY);
  }
  return Object.keys(preview).length === 0 ? null : preview;
}

function reasonCodes(checked: CheckedResult): string[] {
  if (checked.kind !== 'hybrid') return checked.result.reasons.map((reason) => reason.code);
  const { email, text } = checked.result;
  return [...email.reasons, ...(text?.reasons ?? [])].map((reason) => reason.code);
}

function languageOf(checked: CheckedResult): string | null {
  if (checked.kind === 'text') return checked.result.language;
  if (checked.kind === 'hybrid') return checked.result.text?.language ?? null;
  return null;
}

/** The submitted fields of a check of `kind`, and nothing else the request carried (the context is never kept). */
function contentOf(kind: ReviewKind, submitted: Submitted): ReviewContent {
  const content: ReviewContent = {};
  if (kind !== 'text' && submitted.email !== undefined) content.email = submitted.email;
  if (kind !== 'mail') {
    if (submitted.title !== undefined) content.title = submitted.title;
    if (submitted.body !== undefined) content.body = submitted.body;
    if (submitted.sub_title !== undefined) content.sub_title = submitted.sub_title;
  }
  return content;
}

/**
 * The review item of a check just made (the list's item, and the data of a webhook delivery): its result's
 * verdict, score and reason codes, the preview, and the submitted fields when the client keeps content.
 */
export function reviewItemOf(
  checked: CheckedResult,
  submitted: Submitted,
  options: { keepsContent: boolean; at: Date },
): ReviewItem {
  return {
    id: checked.result.id,
    kind: checked.kind,
    created_at: options.at.toISOString(),
    verdict: checked.result.verdict,
    score: checked.result.score,
    reasons: reasonCodes(checked),
    language: languageOf(checked),
    report: null,
    content: options.keepsContent ? contentOf(checked.kind, submitted) : null,
    preview: previewOf(checked, submitted, options.keepsContent),
  };
}
