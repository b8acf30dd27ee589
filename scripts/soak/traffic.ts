/**
 * The soak's traffic (`pnpm soak`, scripts/soak.ts): the clients, the attacker and the heavy client, each
 * exchange timed and recorded in `samples`.
 */
import { randomBytes } from 'node:crypto';

type Endpoint =
  | 'mail'
  | 'text'
  | 'hybrid parallel'
  | 'hybrid step-by-step'
  | 'token password'
  | 'token refresh'
  | 'attacker token'
  | 'heavy text batch';
/** Not the normal clients' traffic: their answers are reported, but not held against the stack. */
export const ADVERSARIES: readonly Endpoint[] = ['attacker token', 'heavy text batch'];
const HEAVY_BATCH_ITEMS = 10;
/** The seconds after a fault's end in which its answers still count as the fault's (retries in flight). */
export const FAULT_GRACE_SECONDS = 3;
export interface Sample {
  endpoint: Endpoint;
  status: number | 'network error';
  ms: number;
  /** Seconds since the traffic started. */
  at: number;
}
interface Session {
  access: string;
  refresh: string;
  refreshAt: number;
}

export const samples: Sample[] = [];
export const events: string[] = [];
/** The injected faults, in seconds of traffic: from the fault to its repair, plus FAULT_GRACE_SECONDS. */
export const outages: [number, number][] = [];
/** What the traffic counted: the sessions lost and requests failed, and when the traffic started. */
export const tally = { sessionsLost: 0, failedRequests: 0, startedAt: Date.now() };

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
export const secondsIn = () => (Date.now() - tally.startedAt) / 1000;
const elapsed = () => `${secondsIn().toFixed(1).padStart(5)} s`;
export const secret = () => randomBytes(24).toString('hex');
export const note = (event: string) => {
  events.push(`${elapsed()}  ${event}`);
  console.log(`${elapsed()}  ${event}`);
};

/** One HTTP exchange, timed and recorded. */
async function exchange(endpoint: Endpoint, url: string, init: RequestInit): Promise<Response | undefined> {
  const begin = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    await response.clone().arrayBuffer();
    samples.push({ endpoint, status: response.status, ms: performance.now() - begin, at: secondsIn() });
    return response;
  } catch {
    samples.push({ endpoint, status: 'network error', ms: performance.now() - begin, at: secondsIn() });
    return undefined;
  }
}

type CheckEndpoint = Exclude<
  Endpoint,
  'token password' | 'token refresh' | 'attacker token' | 'heavy text batch'
>;

/** A fresh request body per call, so no cache answers it. */
function checkRequest(endpoint: CheckEndpoint): {
  path: string;
  body: object;
  headers: Record<string, string>;
} {
  const n = Math.floor(Math.random() * 1e6);
  switch (endpoint) {
    case 'mail':
      return { path: '/deapi/v1/spam/mail', body: { email: `kunde.${n}@beispiel.de` }, headers: {} };
    case 'text':
      return {
        path: '/frapi/v1/spam/text',
        body: { title: `Question ${n}`, body: 'Bonjour, merci pour l’article.' },
        headers: {},
      };
    case 'hybrid parallel':
      return {
        path: '/api/v1/spam/hybrid-check',
        body: { email: `reader${n}@example.org`, title: 'Hello', body: `Nice article number ${n}.` },
        headers: {},
      };
    case 'hybrid step-by-step':
      return {
        path: '/api/v1/spam/hybrid-check',
        body: { email: `reader${n}@example.org`, title: 'Hello', body: `Great read, thanks ${n}.` },
        headers: { 'X-Internal-Step-By-Step': 'true' },
      };
  }
}

const retryAfterMs = (response: Response | undefined) =>
  Math.min(10, Number(response?.headers.get('retry-after') ?? 1) || 1) * 1000;

export class SoakClient {
  private session: Session | undefined;

  constructor(
    private readonly gateway: string,
    private readonly credentials: { id: string; secret: string; username: string; password: string },
    private readonly until: number,
  ) {}

  /** Token endpoint call; 503 and 429 are retried after Retry-After, as the docs tell clients to. */
  private async token(endpoint: Endpoint, form: Record<string, string>): Promise<Response | undefined> {
    const basic = Buffer.from(`${this.credentials.id}:${this.credentials.secret}`).toString('base64');
    for (;;) {
      const response = await exchange(endpoint, `${this.gateway}/oauth/token`, {
        method: 'POST',
        headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
      if (response && response.status !== 503 && response.status !== 429) return response;
      if (Date.now() + retryAfterMs(response) > this.until + 15_000) return response;
      await sleep(retryAfterMs(response));
    }
  }

  private adopt(body: { access_token: string; refresh_token: string; expires_in: number }): void {
    // Refresh at 60–80 % of the lifetime: before expiry, spread over the clients.
    const lifetimeMs = body.expires_in * 1000 * (0.6 + Math.random() * 0.2);
    this.session = {
      access: body.access_token,
      refresh: body.refresh_token,
      refreshAt: Date.now() + lifetimeMs,
    };
  }

  async login(): Promise<void> {
    const response = await this.token('token password', {
      grant_type: 'password',
      username: this.credentials.username,
      password: this.credentials.password,
    });
    if (response?.status !== 200)
      throw new Error(`login of ${this.credentials.username}: ${response?.status}`);
    this.adopt((await response.json()) as never);
  }

  private async refresh(): Promise<void> {
    const response = await this.token('token refresh', {
      grant_type: 'refresh_token',
      refresh_token: this.session!.refresh,
    });
    if (response?.status === 200) return this.adopt((await response.json()) as never);
    const body = (await response?.json().catch(() => undefined)) as { error?: string } | undefined;
    if (body?.error === 'invalid_grant') {
      tally.sessionsLost += 1;
      note(`session of ${this.credentials.username} lost (refresh answered invalid_grant); logging in again`);
    }
    await this.login();
  }

  private async check(endpoint: CheckEndpoint): Promise<void> {
    const { path, body, headers } = checkRequest(endpoint);
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      // A check retried through an outage may outlive the access token: refresh first, as before any call.
      if (Date.now() >= this.session!.refreshAt) await this.refresh();
      const response = await exchange(endpoint, `${this.gateway}${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${this.session!.access}`,
          'Content-Type': 'application/json',
          ...headers,
        },
        body: JSON.stringify(body),
      });
      if (response?.ok) return;
      if (response?.status === 401) await this.refresh();
      else if (!response || response.status === 503 || response.status === 429) {
        if (Date.now() > this.until) break;
        await sleep(retryAfterMs(response));
      } else break;
    }
    tally.failedRequests += 1;
  }

  async run(): Promise<void> {
    await this.login();
    const mix: CheckEndpoint[] = ['mail', 'mail', 'mail', 'text', 'text', 'text'];
    mix.push('hybrid parallel', 'hybrid parallel', 'hybrid step-by-step', 'hybrid step-by-step');
    while (Date.now() < this.until) {
      if (Date.now() >= this.session!.refreshAt) await this.refresh();
      else await this.check(mix[Math.floor(Math.random() * mix.length)]!);
      await sleep(20 + Math.random() * 60);
    }
  }
}

/** Failed logins and wrong client secrets at the token endpoint, from the clients' own address, until `until`. */
export async function attacker(gateway: string, victim: string, until: number): Promise<void> {
  while (Date.now() < until) {
    const wrongSecret = Math.random() < 0.5;
    const basic = Buffer.from(`${victim}:${wrongSecret ? secret() : 'x'}`).toString('base64');
    await exchange('attacker token', `${gateway}/oauth/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username: `nobody-${Math.floor(Math.random() * 1e6)}`,
        password: secret(),
      }).toString(),
    });
    await sleep(20);
  }
}

/** One client sending text batches of HEAVY_BATCH_ITEMS texts of 100,000 characters, two at a time. */
export async function heavyClient(
  gateway: string,
  credentials: { id: string; secret: string; username: string; password: string },
  until: number,
): Promise<void> {
  const basic = Buffer.from(`${credentials.id}:${credentials.secret}`).toString('base64');
  let login: Response | undefined;
  // 503 and 429 are retried after Retry-After, as the docs tell clients to, as the other clients' logins.
  while (Date.now() < until) {
    login = await exchange('heavy text batch', `${gateway}/oauth/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username: credentials.username,
        password: credentials.password,
      }).toString(),
    });
    if (login && login.status !== 503 && login.status !== 429) break;
    await sleep(retryAfterMs(login));
  }
  if (login?.status !== 200) throw new Error(`login of the heavy client: ${login?.status}`);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const paragraph = 'Danke für den Artikel über die Stadt und ihre Geschichte, wir kommen gern wieder. ';
  const body = JSON.stringify({
    items: Array.from({ length: HEAVY_BATCH_ITEMS }, (_, i) => ({
      title: `Bericht ${i}`,
      body: paragraph.repeat(Math.ceil(100_000 / paragraph.length)).slice(0, 100_000),
    })),
  });
  const sender = async () => {
    while (Date.now() < until) {
      const answer = await exchange('heavy text batch', `${gateway}/api/v1/spam/text/batch`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body,
      });
      if (answer?.status === 401) return;
      if (!answer?.ok) await sleep(retryAfterMs(answer));
    }
  };
  await Promise.all([sender(), sender()]);
}
