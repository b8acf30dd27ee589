import {
  FORM_CONTEXT_LIMITS,
  type FormContext,
  type FormType,
  type HybridCheckRequest,
  type Language,
  type TextCheckRequest,
  type Verdict,
} from '@spam-check/contracts';

/** At or above this score, a spam answer carries `X-akismet-pro-tip: discard` (docs/akismet.md). */
export const DISCARD_SCORE = 0.95;

/** The fields every Akismet call needs besides the key (Akismet's own; `user_ip` is not read). */
export const REQUIRED_FIELDS = ['blog'] as const;

export type AkismetForm = Record<string, string>;

/** Akismet's `comment_type` values onto our form types; anything else is a comment. */
const FORM_TYPE_OF: Record<string, FormType> = {
  comment: 'comment',
  'forum-post': 'forum_post',
  forum_post: 'forum_post',
  reply: 'reply',
  'contact-form': 'contact',
  contact: 'contact',
  signup: 'signup',
  message: 'message',
  review: 'review',
};

/** The first language of `blog_lang` (`de_DE`, `fr, en_us`) that is configured, else undefined. */
export function languageOf(
  blogLang: string | undefined,
  languages: readonly Language[],
): Language | undefined {
  for (const tag of (blogLang ?? '').split(',')) {
    const code = tag.trim().slice(0, 2).toLowerCase();
    const found = languages.find((language) => language === code);
    if (found) return found;
  }
  return undefined;
}

const cut = (value: string | undefined, max: number) =>
  value === undefined ? undefined : value.slice(0, max);

/**
 * The form context of an Akismet call (docs/akismet.md). The rules:
 * - `comment_type` becomes `form_type` (unknown or empty: `comment`);
 * - `comment_author` and `comment_author_url` become `author_name` and `author_url`, `user_agent` stays;
 *   each cut to our limits, as Akismet takes them whole;
 * - `honeypot_field_name` names a field whose value is the honeypot (absent: empty, nothing filled);
 * - `user_ip` and every other field are read by nothing.
 */
function formContext(form: AkismetForm): FormContext {
  const honeypotField = form.honeypot_field_name;
  const context: FormContext = { form_type: FORM_TYPE_OF[form.comment_type ?? ''] ?? 'comment' };
  const author = cut(form.comment_author, FORM_CONTEXT_LIMITS.authorName);
  const url = cut(form.comment_author_url, FORM_CONTEXT_LIMITS.authorUrl);
  const agent = cut(form.user_agent, FORM_CONTEXT_LIMITS.userAgent);
  if (author) context.author_name = author;
  if (url) context.author_url = url;
  if (agent) context.user_agent = agent;
  if (honeypotField) context.honeypot = cut(form[honeypotField] ?? '', FORM_CONTEXT_LIMITS.honeypot) ?? '';
  return context;
}

/** A comment: a hybrid check when it has an author e-mail, else a text check (title empty, body the content). */
export type AkismetCheck =
  { kind: 'hybrid'; request: HybridCheckRequest } | { kind: 'text'; request: TextCheckRequest };

export function checkOf(form: AkismetForm): AkismetCheck {
  const text = { title: '', body: form.comment_content ?? '', context: formContext(form) };
  const email = form.comment_author_email?.trim();
  return email ? { kind: 'hybrid', request: { ...text, email } } : { kind: 'text', request: text };
}

/** Akismet's answer to a verdict: `true` is spam; what a suspicious verdict is, the client decides. */
export function isSpam(verdict: Verdict, suspiciousAs: 'spam' | 'ham'): boolean {
  return verdict === 'spam' || (verdict === 'suspicious' && suspiciousAs === 'spam');
}
