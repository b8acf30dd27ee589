import {
  SpamCheckClient,
  isSpamCheckError,
  type FormContext,
  type FormType,
  type Language,
  type Reason,
} from '@spam-check/client';
import { DEFAULT_CHECK_LIMITS, FORM_CONTEXT_LIMITS } from '@spam-check/contracts';
import { readAnswer } from './answer-shape';
import {
  DEFAULT_HONEYPOT_FIELD,
  DEFAULT_TIMESTAMP_FIELD,
  secondsSinceRender,
  type FieldNames,
} from './form-fields';
import { fitContext, fitField, fitText, localVerdict } from './local-rules';

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
  /** When the API cannot answer (a 5xx, a timeout, no connection, no check result): `allow` (default) or `reject`. */
  onUnavailable?: 'allow' | 'reject';
  /** A form posted faster than this is suspicious when the API gives no verdict (default 3, as the API's `FORM_MIN_SECONDS`). */
  minSeconds?: number;
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
  /**
   * `checked`: the API answered; `local`: the form's own signals decided (a filled honeypot, an address over
   * the API's limit; or a form posted too fast when the API gave no verdict); `rejected`: the API refused the
   * call with a 4xx (refused in `enforce` mode); `unavailable`: it could not answer, and `onUnavailable`
   * decided.
   */
  status: 'checked' | 'local' | 'rejected' | 'unavailable';
  mode: 'enforce' | 'dry-run';
  /** Absent when there is no verdict (`rejected`, `unavailable`). */
  verdict?: Verdict;
  score?: number;
  checkId?: string;
  reasons: Reason[];
  /** Why there is no verdict (the API's error code), when there is none. */
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

/** What the form was and who wrote it, cut to the API's limits; an empty field is not sent. */
function authorOf(submission: Submission, options: SpamCheckOptions): Partial<FormContext> {
  const formType = submission.formType ?? options.formType;
  const field = (name: string | undefined, max: number) => {
    const value = name === undefined ? undefined : fieldOf(submission.fields, name)?.trim();
    return value ? value.slice(0, max) : undefined;
  };
  const authorName = field(options.fields?.authorName, FORM_CONTEXT_LIMITS.authorName);
  const authorUrl = field(options.fields?.authorUrl, FORM_CONTEXT_LIMITS.authorUrl);
  return {
    ...(formType ? { form_type: formType } : {}),
    ...(authorName ? { author_name: authorName } : {}),
    ...(authorUrl ? { author_url: authorUrl } : {}),
  };
}

async function askApi(submission: Submission, options: SpamCheckOptions, local: LocalFields) {
  const names = { ...DEFAULT_FIELDS, ...options.fields };
  const title = fieldOf(submission.fields, names.title);
  const body = fieldOf(submission.fields, names.body);
  const subTitle = fieldOf(submission.fields, names.subTitle);
  const context = {
    ...fitContext(local.honeypot, local.seconds, submission.userAgent),
    ...authorOf(submission, options),
  };
  const client = clientOf(options);
  const email = local.email === undefined ? undefined : fitField(local.email, DEFAULT_CHECK_LIMITS.email);
  if (email !== undefined && title === undefined && body === undefined)
    return client.checkMail({ email, context });
  const text = fitText({
    title: title ?? '',
    body: body ?? '',
    ...(subTitle ? { sub_title: subTitle } : {}),
    ...(email === undefined ? {} : { email }),
    context,
  });
  return email === undefined ? client.checkText(text) : client.checkHybrid({ ...text, email });
}

interface LocalFields {
  honeypot: string;
  seconds: number;
  email: string | undefined;
}

/** The form's own signals: a missing or forged render time counts as posted at once. */
function localFieldsOf(submission: Submission, options: SpamCheckOptions): LocalFields {
  const rendered = fieldOf(submission.fields, options.timestampField ?? DEFAULT_TIMESTAMP_FIELD);
  return {
    honeypot: fieldOf(submission.fields, options.honeypotField ?? DEFAULT_HONEYPOT_FIELD) ?? '',
    seconds: secondsSinceRender(rendered, options.secret) ?? 0,
    email: fieldOf(submission.fields, { ...DEFAULT_FIELDS, ...options.fields }.email),
  };
}

/** Only the API's own trouble is "unavailable"; a 4xx is an answer about the call (the submission, the quota, the site's credentials). */
const isUnavailable = (error: unknown) =>
  isSpamCheckError(error) && (error.status === 0 || error.status >= 500);

/**
 * Checks one form submission and says whether to accept it. The rules:
 * - the form's own signals first (`local-rules.ts`): a filled honeypot or an address over the API's limit is
 *   spam without asking the API (status `local`);
 * - otherwise the fields present decide the check (an e-mail and a text: hybrid; only one: mail or text), cut
 *   to the API's limits; in `enforce` mode a verdict in `refuse` is refused, in `dry-run` nothing is;
 * - when the API gives no verdict, a form posted faster than `minSeconds` is suspicious all the same (status
 *   `local`), so no failure of the call lets a bot's pace through;
 * - else a 5xx, a timeout, a network failure or a 200 that is no check result is `unavailable`, and
 *   `onUnavailable` decides (in `dry-run` too: nothing is refused); any 4xx is `rejected`, refused in
 *   `enforce` mode.
 * Every decision is logged.
 */
export async function checkSubmission(
  submission: Submission,
  options: SpamCheckOptions,
): Promise<SubmissionOutcome> {
  const mode = options.mode ?? 'enforce';
  const refuses = (verdict: Verdict) => mode === 'enforce' && (options.refuse ?? ['spam']).includes(verdict);
  const fields = localFieldsOf(submission, options);
  const local = localVerdict({
    ...fields,
    minSeconds: options.minSeconds ?? 3,
    language: options.api.language ?? 'en',
  });
  let outcome: SubmissionOutcome;
  if (local?.verdict === 'spam') {
    outcome = { allowed: !refuses('spam'), status: 'local', mode, ...local };
  } else {
    outcome = await outcomeOfApi(submission, options, fields, mode, refuses);
    if (local && outcome.status !== 'checked')
      outcome = { ...outcome, allowed: !refuses(local.verdict), status: 'local', ...local };
  }
  (options.log ?? logJson)({ ...outcome, reasons: outcome.reasons.map((reason) => reason.code) });
  return outcome;
}

async function outcomeOfApi(
  submission: Submission,
  options: SpamCheckOptions,
  fields: LocalFields,
  mode: 'enforce' | 'dry-run',
  refuses: (verdict: Verdict) => boolean,
): Promise<SubmissionOutcome> {
  const unavailable = (error: string): SubmissionOutcome => ({
    allowed: !(mode === 'enforce' && options.onUnavailable === 'reject'),
    status: 'unavailable',
    mode,
    reasons: [],
    error,
  });
  try {
    const answer = readAnswer(await askApi(submission, options, fields));
    if (!answer) return unavailable('BAD_RESPONSE');
    const { verdict, score, id, reasons } = answer;
    return { allowed: !refuses(verdict), status: 'checked', mode, verdict, score, checkId: id, reasons };
  } catch (error) {
    if (!isSpamCheckError(error)) return unavailable('UNEXPECTED');
    if (isUnavailable(error)) return unavailable(error.code);
    return { allowed: mode !== 'enforce', status: 'rejected', mode, reasons: [], error: error.code };
  }
}

function logJson(entry: SubmissionLog): void {
  process.stdout.write(`${JSON.stringify({ spam_check: entry })}\n`);
}
