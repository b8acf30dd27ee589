/** A small HTTP client for the end-to-end tests: they talk to the gateway over HTTP only. */
export interface HttpResult {
  status: number;
  headers: Headers;
  body: any;
}

/** Polls `probe` until `accept` holds, for at most `ms` (the contract's bound); returns the last answer. */
export async function within<T>(
  ms: number,
  probe: () => Promise<T>,
  accept: (answer: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + ms;
  let answer = await probe();
  while (!accept(answer) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    answer = await probe();
  }
  return answer;
}

export async function request(url: string, init: RequestInit = {}): Promise<HttpResult> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

/** A request with a bearer token and, when given, a JSON body (`headers` added, `signal` to bound it). */
export function callJson(
  method: string,
  url: string,
  token: string,
  body?: unknown,
  options: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<HttpResult> {
  return request(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/**
 * Sends `send` again while it is answered 503, after the answer's `Retry-After`, up to `attempts` times, as
 * a client is told to: on a loaded machine a dependency can be late (the gateway's bound on auth) without
 * anything being wrong, and a suite's set-up must not take that 503 for its token.
 */
export async function retryingUnavailable(
  send: () => Promise<HttpResult>,
  attempts = 5,
): Promise<HttpResult> {
  let answer = await send();
  for (let attempt = 1; attempt < attempts && answer.status === 503; attempt++) {
    const seconds = Number(answer.headers.get('retry-after') ?? 1);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    answer = await send();
  }
  return answer;
}

/** POST to the token endpoint with the client's HTTP Basic authentication. */
function tokenRequest(
  gateway: string,
  prefix: string,
  client: { client: string; secret: string },
  form: Record<string, string>,
): Promise<HttpResult> {
  return request(`${gateway}${prefix}oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.client}:${client.secret}`).toString('base64')}`,
    },
    body: new URLSearchParams(form),
  });
}

export async function obtainToken(
  gateway: string,
  prefix = '',
  credentials = { client: 'demo-client', secret: 'demo-secret', username: 'demo', password: 'demo-password' },
): Promise<HttpResult> {
  return tokenRequest(gateway, prefix, credentials, {
    grant_type: 'password',
    username: credentials.username,
    password: credentials.password,
  });
}

/** RFC 6749 §4.4: a site's server acting as itself (docs/design.md, Tokens). */
export async function obtainServerToken(
  gateway: string,
  prefix = '',
  credentials = { client: 'demo-client', secret: 'demo-secret' },
): Promise<HttpResult> {
  return tokenRequest(gateway, prefix, credentials, { grant_type: 'client_credentials' });
}

export function postJson(
  url: string,
  token: string | undefined,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
