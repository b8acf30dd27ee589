import type {
  CheckList,
  FeedbackByCheck,
  FeedbackReportsResult,
  FeedbackRequest,
  FeedbackResult,
  HybridCheckRequest,
  HybridResult,
  Language,
  MailBatchRequest,
  MailBatchResult,
  MailCheckRequest,
  MailResult,
  TextBatchRequest,
  TextCheckRequest,
  TextBatchResult,
  TextResult,
  Verdict,
  ReviewKind,
} from '@spam-check/contracts';
import { DEFAULT_RETRY, answerError, send, type CallOptions, type RetryPolicy } from './http';
import {
  TokenSession,
  basicAuthorization,
  type ClientCredentials,
  type StoredTokens,
  type UserCredentials,
} from './tokens';

export interface SpamCheckClientOptions {
  /** Where the gateway answers, e.g. `https://spam-check.example.com`. */
  baseUrl: string;
  /** The OAuth client (confidential, first party: docs/design.md, Tokens). */
  client: ClientCredentials;
  /**
   * How the client signs in: `client_credentials` for a site's server acting as itself (the way for servers:
   * no user, no refresh token to keep; docs/design.md, Tokens), `password` (the default) with `user`.
   */
  grant?: 'password' | 'client_credentials';
  /** The user of the password grant; without it the client needs `tokens` and cannot sign in again. */
  user?: UserCredentials;
  /** Tokens kept from an earlier run (see `onTokens`). */
  tokens?: StoredTokens;
  /** Called with every new pair of tokens, e.g. to keep them: refresh tokens rotate on every use. */
  onTokens?: (tokens: StoredTokens) => void | Promise<void>;
  /** Language of messages in results and problems (the path prefix, e.g. `/deapi/...`). */
  language?: Language;
  /** Deadline of each attempt of a single check or token request (default 10 s). */
  timeoutMs?: number;
  /** Deadline of each attempt of a batch (default 120 s). */
  batchTimeoutMs?: number;
  /** Retries of 429 and 503 answers (default: 3 retries, waits of at most 30 s). */
  retry?: Partial<RetryPolicy>;
  /** A `fetch` of your own (default: the global one). */
  fetch?: typeof fetch;
}

export interface CheckOptions extends CallOptions {
  /** This call's language, instead of the client's. */
  language?: Language;
}

export interface HybridOptions extends CheckOptions {
  /** `X-Internal-Step-By-Step`: the e-mail first, the text only if the e-mail is not spam. */
  stepByStep?: boolean;
}

/** The filters of `checks.list` (all optional); dates as `Date` or RFC 3339 strings. */
export interface CheckListQuery {
  verdict?: Verdict | Verdict[];
  kind?: ReviewKind;
  reason?: string;
  reported?: boolean;
  since?: Date | string;
  until?: Date | string;
  /** Items per page, 1 to 100 (default 50). */
  limit?: number;
}

/** The query string of a list request: repeated `verdict`, dates in RFC 3339. */
function listQuery(query: CheckListQuery, cursor: string | null): string {
  const params = new URLSearchParams();
  const verdicts = query.verdict === undefined ? [] : [query.verdict].flat();
  for (const verdict of verdicts) params.append('verdict', verdict);
  const date = (value: Date | string) => (value instanceof Date ? value.toISOString() : value);
  if (query.kind !== undefined) params.set('kind', query.kind);
  if (query.reason !== undefined) params.set('reason', query.reason);
  if (query.reported !== undefined) params.set('reported', String(query.reported));
  if (query.since !== undefined) params.set('since', date(query.since));
  if (query.until !== undefined) params.set('until', date(query.until));
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (cursor !== null) params.set('cursor', cursor);
  const encoded = params.toString();
  return encoded === '' ? '' : `?${encoded}`;
}

/**
 * The spam check API from code: every check, batches and feedback, each typed from the contracts. Tokens are
 * handled by a `TokenSession`; every call retries 429 and 503 as the policy says, has a deadline, takes an
 * `AbortSignal`, sends `X-Request-Id`, and fails with a `SpamCheckError`.
 */
export class SpamCheckClient {
  private readonly session: TokenSession;
  private readonly baseUrl: string;
  private readonly retry: RetryPolicy;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: SpamCheckClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.session = new TokenSession({
      client: options.client,
      ...(options.grant ? { grant: options.grant } : {}),
      ...(options.user ? { user: options.user } : {}),
      ...(options.tokens ? { tokens: options.tokens } : {}),
      ...(options.onTokens ? { onTokens: options.onTokens } : {}),
      post: (endpoint, form, call) =>
        send(
          this.url(`oauth/${endpoint}`, this.options.language),
          {
            method: 'POST',
            headers: {
              Authorization: basicAuthorization(options.client),
              'Content-Type': 'application/x-www-form-urlencoded',
              Accept: 'application/json',
            },
            body: form.toString(),
          },
          { ...call, fetch: this.fetch, retry: this.retry, timeoutMs: call.timeoutMs ?? this.timeoutMs() },
        ),
    });
  }

  /**
   * An address, or `{email, context}` with the form context of its submission (docs/design.md, Form context).
   */
  checkMail(email: string | MailCheckRequest, options: CheckOptions = {}): Promise<MailResult> {
    return this.call('api/v1/spam/mail', typeof email === 'string' ? { email } : email, options);
  }

  checkText(request: TextCheckRequest, options: CheckOptions = {}): Promise<TextResult> {
    return this.call('api/v1/spam/text', request, options);
  }

  checkHybrid(request: HybridCheckRequest, options: HybridOptions = {}): Promise<HybridResult> {
    const headers: Record<string, string> = {};
    if (options.stepByStep !== undefined)
      headers['X-Internal-Step-By-Step'] = options.stepByStep ? 'true' : 'false';
    return this.call('api/v1/spam/hybrid-check', request, options, headers);
  }

  /** 1 to 1,000 addresses; each counts against the rate limit (docs/design.md, Batch checks). */
  checkMailBatch(emails: MailBatchRequest['emails'], options: CheckOptions = {}): Promise<MailBatchResult> {
    return this.call('api/v1/spam/mail/batch', { emails }, this.batchOptions(options));
  }

  /** 1 to 100 texts; each counts against the rate limit (docs/design.md, Batch checks). */
  checkTextBatch(items: TextBatchRequest['items'], options: CheckOptions = {}): Promise<TextBatchResult> {
    return this.call('api/v1/spam/text/batch', { items }, this.batchOptions(options));
  }

  /** Reports a check (by id), an address or a text as spam or ham (docs/design.md, Learning from reports). */
  sendFeedback(request: FeedbackRequest, options: CheckOptions = {}): Promise<FeedbackResult> {
    return this.call('api/v1/spam/feedback', request, options);
  }

  /**
   * Many reports by check id at once (1 to 100): each is applied or refused on its own, and the answer lists
   * each one's result or `{error}` in order.
   */
  sendReports(reports: FeedbackByCheck[], options: CheckOptions = {}): Promise<FeedbackReportsResult> {
    return this.call('api/v1/spam/feedback', { reports }, options);
  }

  /** The client's recent checks (`GET /api/v1/checks`), newest first. */
  readonly checks = {
    /**
     * The pages of the list, one per iteration, following `next_cursor` until the end; stop iterating to stop
     * reading. A page may hold fewer items than `limit` (even none) when the filters are narrow.
     */
    list: (query: CheckListQuery = {}, options: CheckOptions = {}): AsyncIterableIterator<CheckList> => {
      const pages = async function* (this: SpamCheckClient): AsyncGenerator<CheckList> {
        let cursor: string | null = null;
        do {
          const page: CheckList = await this.call(
            `api/v1/checks${listQuery(query, cursor)}`,
            undefined,
            options,
          );
          yield page;
          cursor = page.next_cursor;
        } while (cursor !== null);
      };
      return pages.call(this);
    },
  };

  /** Signs in now with the configured grant (otherwise the first call does). */
  signIn(options: CallOptions = {}): Promise<StoredTokens> {
    return this.session.signIn(options);
  }

  /** Revokes the refresh token and its family (RFC 7009) and forgets the tokens. */
  signOut(options: CallOptions = {}): Promise<void> {
    return this.session.revoke(options);
  }

  /** The current tokens, e.g. to keep them; undefined before the first sign-in. */
  tokens(): StoredTokens | undefined {
    return this.session.current();
  }

  private timeoutMs(): number {
    return this.options.timeoutMs ?? 10_000;
  }

  private batchOptions(options: CheckOptions): CheckOptions {
    return { ...options, timeoutMs: options.timeoutMs ?? this.options.batchTimeoutMs ?? 120_000 };
  }

  private url(path: string, language: Language | undefined): string {
    return `${this.baseUrl}/${language ?? ''}${path}`;
  }

  /**
   * A JSON POST (a GET without `body`) with a bearer token. A 401 `INVALID_TOKEN` (the token was revoked, or expired early) drops
   * the token and tries once more with a renewed one.
   */
  private async call<T>(
    path: string,
    body: unknown,
    options: CheckOptions,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const url = this.url(path, options.language ?? this.options.language);
    for (let renewed = false; ; renewed = true) {
      let token = '';
      const answer = await send(
        url,
        body === undefined
          ? { method: 'GET', headers: { ...headers, Accept: 'application/json' } }
          : {
              method: 'POST',
              headers: { ...headers, 'Content-Type': 'application/json', Accept: 'application/json' },
              body: JSON.stringify(body),
            },
        {
          ...options,
          fetch: this.fetch,
          retry: this.retry,
          timeoutMs: options.timeoutMs ?? this.timeoutMs(),
          authorization: async () => {
            token = await this.session.accessToken(options);
            return `Bearer ${token}`;
          },
        },
      );
      if (answer.status === 200) return answer.body as T;
      const error = answerError(answer, url);
      if (error.code !== 'INVALID_TOKEN' || renewed) throw error;
      this.session.drop(token);
    }
  }
}
