import { randomBytes, randomUUID } from 'node:crypto';
import { REASON_CODES, type ReviewKind, type Verdict } from '@spam-check/contracts';
import { percentile, startStack } from '@spam-check/process-kit';
import { removeKeysUnder, runPrefixEnv } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { contentCipher } from '../src/data-access/content-cipher';
import { redisReviewStore, type ReviewEntry } from '../src/data-access/review-store';

/**
 * The review list with a full retention (docs/review.md): a client with CHECKS checks in Redis, written with
 * the gateway's own store (as checks would leave them, previews of full length), then `GET /api/v1/checks`
 * through auth and the gateway as processes, one request at a time: the route reading nothing (the floor of
 * this machine at this moment: token, query, Redis round trip, answer), the first page unfiltered, a filter
 * that matches one check in ten, and one that matches none (a page reads at most its bound of checks). ROUNDS
 * requests each after WARMUP; p50, p95 and the maximum are printed (aim: the first page's p95 under 50 ms).
 * Then what a kept check costs in Redis (MEMORY USAGE of the client's keys, exact, divided by the checks), and
 * what its sealed content costs when the client keeps content.
 */
const CHECKS = 100_000;
const ROUNDS = 200;
const WARMUP = 20;
const WRITTEN_TOGETHER = 1000;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RETENTION_SECONDS = 7 * 24 * 3600;

const KINDS: ReviewKind[] = ['mail', 'text', 'hybrid'];
const WORDS =
  'hello we offer cheap loans and jobs from home write to emailtok or visit urltok today only'.split(' ');
const sentence = (words: number) =>
  Array.from({ length: words }, (_, i) => WORDS[(i * 7) % WORDS.length]).join(' ');

/** The `index`th check, spread over the retention, newest last; one in ten is spam. */
function entryOf(index: number, now: number): ReviewEntry {
  const kind = KINDS[index % KINDS.length]!;
  const verdict: Verdict = index % 10 === 0 ? 'spam' : index % 10 === 1 ? 'suspicious' : 'ham';
  const at = now - Math.floor(((CHECKS - index) / CHECKS) * (RETENTION_SECONDS - 3600) * 1000);
  return {
    at,
    item: {
      id: randomUUID(),
      kind,
      created_at: new Date(at).toISOString(),
      verdict,
      score: verdict === 'spam' ? 0.93 : verdict === 'suspicious' ? 0.61 : 0.07,
      reasons: [REASON_CODES[index % REASON_CODES.length]!, REASON_CODES[(index * 3) % REASON_CODES.length]!],
      language: kind === 'mail' ? null : 'en',
      preview: kind === 'mail' ? null : { title: sentence(8), body: sentence(80).slice(0, 500) },
    },
    emailHash: kind === 'text' ? undefined : randomBytes(32).toString('hex'),
  };
}

async function timed(url: string, token: string): Promise<number> {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function memoryOf(redis: Redis, keys: string[]): Promise<number> {
  let bytes = 0;
  for (const key of keys) bytes += Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
  return bytes;
}

export async function benchReviewList(): Promise<void> {
  const run = randomUUID().slice(0, 8);
  const prefix = `bench-review-${run}:`;
  const env = runPrefixEnv(prefix);
  const client = 'demo-client';
  const stack = await startStack(
    {
      REDIS_URL,
      AMQP_URL: undefined,
      ...env,
      FEEDBACK_RETENTION_SECONDS: String(RETENTION_SECONDS),
      REVIEW_MAX_CHECKS_PER_CLIENT: String(CHECKS),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_REQUESTS: '0',
    },
    { readyTimeoutMs: 60_000, services: ['auth', 'gateway'] },
  );
  const redis = new Redis(REDIS_URL);
  try {
    const store = redisReviewStore(redis, `${env.REDIS_KEY_PREFIX}review:`, {
      retentionSeconds: RETENTION_SECONDS,
      maxPerClient: CHECKS,
    });
    const now = Date.now();
    for (let start = 0; start < CHECKS; start += WRITTEN_TOGETHER)
      await store.add(
        client,
        Array.from({ length: WRITTEN_TOGETHER }, (_, offset) => entryOf(start + offset, now)),
      );

    const token = (
      (await (
        await fetch(`${stack.gateway}/oauth/token`, {
          method: 'POST',
          headers: {
            Authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`,
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ grant_type: 'password', username: 'demo', password: 'demo-password' }),
        })
      ).json()) as { access_token: string }
    ).access_token;

    console.log(
      `review list of ${CHECKS} checks, ${ROUNDS} sequential requests each after ${WARMUP} warm-up (ms)`,
    );
    const future = encodeURIComponent(new Date(now + 3600_000).toISOString());
    for (const [name, query] of [
      ['nothing read (the route alone, since=future)', `?since=${future}`],
      ['first page (50)', ''],
      ['first page (100)', '?limit=100'],
      ['verdict=spam (1 in 10)', '?verdict=spam'],
      ['reported=true (none: one bounded read)', '?reported=true'],
    ] as const) {
      const url = `${stack.gateway}/api/v1/checks${query}`;
      for (let i = 0; i < WARMUP; i += 1) await timed(url, token);
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i += 1) times.push(await timed(url, token));
      times.sort((a, b) => a - b);
      console.log(
        `  ${name.padEnd(46)} p50 ${percentile(times, 0.5).toFixed(1)}  p95 ${percentile(times, 0.95).toFixed(1)}  max ${times.at(-1)!.toFixed(1)}`,
      );
    }

    const keyOf = (name: string) => `${env.REDIS_KEY_PREFIX}review:{${client}}:${name}`;
    const listBytes = await memoryOf(redis, [keyOf('order'), keyOf('items'), keyOf('reports')]);
    const cipher = contentCipher(randomBytes(32).toString('hex'));
    const sealed = cipher.seal(client, randomUUID(), {
      email: 'someone.with.a.name@example.org',
      title: sentence(8),
      body: sentence(200).slice(0, 1000),
    });
    const contentKey = keyOf(`content:${randomUUID()}`);
    await redis.set(contentKey, sealed, 'EX', 60);
    const contentBytes = await memoryOf(redis, [contentKey]);
    console.log(
      `  Redis per kept check: ${Math.round(listBytes / CHECKS)} bytes (list keys ${(listBytes / 2 ** 20).toFixed(1)} MiB for ${CHECKS}); ` +
        `kept content (a 1,000-character text and an address): ${contentBytes} bytes more per check`,
    );
  } finally {
    await stack.stop();
    await removeKeysUnder(redis, prefix);
    redis.disconnect();
  }
}
