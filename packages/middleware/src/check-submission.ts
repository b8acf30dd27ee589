import {
  SpamCheckClient,
  isSpamCheckError,
  type FormContext,
  type FormType,
  type Language,
  type Reason,
} from '@spam-check/client';
import {
  DEFAULT_HONEYPOT_FIELD,
  DEFAULT_TIMESTAMP_FIELD,
  secondsSinceRender,
  type FieldNames,
} from './form-fields';

type Verdict = 'ham' | 'suspicious' | 'spam';

export interface SpamCheckOptions extends FieldNames {
  /**
   * The API and the site's OAuth client; it signs in with the client_credentials grant (docs/design.md,
   * Tokens).
   */
  api: { baseUrl: string; clientId: string; clientSecret: string; language?: Language; timeoutMs?: number };
  /** Signs the render time in `formFields()` and checks it on submission. Keep it secret, like a session key. */
  secret: string;
  /** `enforce` (default) refuses what `refuse` names; `dry-run` attaches and logs the verdict, refuses nothing. */
  mode?: 'enforce' | 'dry-run';
  /** When the API cannot answer (down, timeout, rate limited, refused the call): `allow` (default) or `reject`. */
  onUnavailable?: 'allow' | 'reject';
  /** The verdicts refused in `enforce` mode (default `["spam"]`). */
  refuse?: Verdict[];
  /**
   * The form's fields that go to the check (defaults: `email`, `title`, `body`, `sub_title`; absent: not sent).
   * `authorName` and `authorUrl` name the fields with the author's name and website (no default: not sent).
   */
  fields?: {
    email?: string;
    title?: string;
    body?: string;
    subTitle?: string;
    authorName?: string;
    authorUrl?: string;
  };
  /** What kind of form this is (`comment`, `contact`, `signup`, …): the API judges a text as what it is. */
  formType?: FormType;
  /** Where each decision is logged (default: one JSON line on stdout); never a field's content. */
  log?: (entry: SubmissionLog) => void;
  /** A client of your own (tests, a shared instance); `api` is then used for nothing else. */
  client?: SpamCheckClient;
}

/** What a submission came to; `allowed` is what the handler acts on. */
export interface SubmissionOutcome {
  allowed: boolean;
  /** `checked`: the API answered; `unavailable`: it could not, and `onUnavailable` decided. */
  status: 'checked' | 'unavailable';
  mode: 'enforce' | 'dry-run';
  /** Absent when the API could not answer. */
  verdict?: Verdict;
  score?: number;
  checkId?: string;
  reasons: Reason[];
  /** Why the API could not answer (its error code), when it could not. */
  error?: string;
}

export type SubmissionLog = Omit<SubmissionOutcome, 'reasons'> & { reasons: string[] };

/** A submission as a handler has it: the posted fields and the request's User-Agent. */
export interface Submission {
  fields: FormData | URLSearchParams | Record<string, unknown>;
  userAgent?: string | null | undefined;
  /** The kind of form, when one handler serves several; else `formType` of the options. */
  formType?: FormType | undefined;
}

const DEFAULT_FIELDS = { email: 'email', title: 'title', body: 'body', subTitle: 'sub_title' };

function fieldOf(fields: Submission['fields'], name: string): string | undefined {
  const value =
    fields instanceof FormData || fields instanceof URLSearchParams ? fields.get(name) : fields[name];
  if (typeof value === 'string') return value;
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}

const clients = new WeakMap<SpamCheckOptions, SpamCheckClient>();
function clientOf(options: SpamCheckOptions): SpamCheckClient {
  let client = options.client ?? clients.get(options);
  if (!client) {
    const { baseUrl, clientId, clientSecret, language, timeoutMs } = options.api;
    client = new SpamCheckClient({
      baseUrl,
      client: { clientId, clientSecret },
      grant: 'client_credentials',
      ...(language ? { language } : {}),
      // A form waits for the answer: a short deadline and no waiting for retries.
      timeoutMs: timeoutMs ?? 3000,
      retry: { maxRetries: 0 },
    });
    clients.set(options, client);
  }
  return client;
}

/**
 * The form context of a submission (docs/design.md, Form context): a missing or forged render time counts as
 * posted at once.
 */
function contextOf(submission: Submission, options: SpamCheckOptions): FormContext {
  const honeypot = fieldOf(submission.fields, options.honeypotField ?? DEFAULT_HONEYPOT_FIELD) ?? '';
  const rendered = fieldOf(submission.fields, options.timestampField ?? DEFAULT_TIMESTAMP_FIELD);
  const seconds = secondsSinceRender(rendered, options.secret) ?? 0;
  return {
    honeypot: honeypot.slice(0, 1000),
    seconds_to_submit: Math.min(seconds, 10_000_000),
    ...(submission.userAgent ? { user_agent: submission.userAgent.slice(0, 512) } : {}),
    ...authorOf(submission, options),
  };
}

/** What the form was and who wrote it, cut to the API's limits; an empty field is not sent. */
function authorOf(submission: Submission, options: SpamCheckOptions): Partial<FormContext> {
  const formType = submission.formType ?? options.formType;
  const field = (name: string | undefined, max: number) => {
    const value = name === undefined ? undefined : fieldOf(submission.fields, name)?.trim();
    return value ? value.slice(0, max) : undefined;
  };
  const authorName = field(options.fields?.authorName, 200);
  const authorUrl = field(options.fields?.authorUrl, 2000);
  return {
    ...(formType ? { form_type: formType } : {}),
    ...(authorName ? { author_name: authorName } : {}),
    ...(authorUrl ? { author_url: authorUrl } : {}),
  };
}

async function askApi(submission: Submission, options: SpamCheckOptions) {
  const names = { ...DEFAULT_FIELDS, ...options.fields };
  const email = fieldOf(submission.fields, names.email);
  const title = fieldOf(submission.fields, names.title);
  const body = fieldOf(submission.fields, names.body);
  const subTitle = fieldOf(submission.fields, names.subTitle);
  const context = contextOf(submission, options);
  const client = clientOf(options);
  const text = {
    title: title ?? '',
    body: body ?? '',
    ...(subTitle ? { sub_title: subTitle } : {}),
    context,
  };
  if (email !== undefined && (title !== undefined || body !== undefined))
    return client.checkHybrid({ ...text, email });
  if (email !== undefined) return client.checkMail({ email, context });
  return client.checkText(text);
}

/**
 * Checks one form submission and says whether to accept it. The rules: the fields present decide the check
 * (an e-mail and a text: hybrid; only one: mail or text); the honeypot and the signed render time become the
 * form context; in `enforce` mode a verdict in `refuse` is refused, in `dry-run` nothing is; when the API
 * cannot answer, `onUnavailable` decides (in `dry-run` too: nothing is refused). Every decision is logged.
 */
export async function checkSubmission(
  submission: Submission,
  options: SpamCheckOptions,
): Promise<SubmissionOutcome> {
  const mode = options.mode ?? 'enforce';
  let outcome: SubmissionOutcome;
  try {
    const result = await askApi(submission, options);
    const reasons =
      'reasons' in result ? result.reasons : [...result.email.reasons, ...(result.text?.reasons ?? [])];
    const refused = mode === 'enforce' && (options.refuse ?? ['spam']).includes(result.verdict);
    outcome = {
      allowed: !refused,
      status: 'checked',
      mode,
      verdict: result.verdict,
      score: result.score,
      checkId: result.id,
      reasons,
    };
  } catch (error) {
    const rejected = mode === 'enforce' && options.onUnavailable === 'reject';
    outcome = {
      allowed: !rejected,
      status: 'unavailable',
      mode,
      reasons: [],
      error: isSpamCheckError(error) ? error.code : 'UNEXPECTED',
    };
  }
  (options.log ?? logJson)({ ...outcome, reasons: outcome.reasons.map((reason) => reason.code) });
  return outcome;
}

function logJson(entry: SubmissionLog): void {
  process.stdout.write(`${JSON.stringify({ spam_check: entry })}\n`);
}
