import { createHmac, randomUUID } from 'node:crypto';
import { mailResultSchema } from '@spam-check/contracts';
import { keysUnder, redisUrl, removeKeysUnder, reportFeedback } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { startDetector, type StartedDetector } from './support/start-service';

// The e-mail detector's side of docs/design.md, Privacy and erasure: reports expire after
// FEEDBACK_REPORT_RETENTION_DAYS, and data stored in clear by an earlier version is migrated to keyed hashes
// at start.

async function codesFor(detector: StartedDetector, client: string, email: string): Promise<string[]> {
  const response = await detector.check({ email }, { 'x-client-id': client });
  expect(response.status).toBe(200);
  return mailResultSchema.parse(response.body).reasons.map((reason) => reason.code);
}

/** Every key under a prefix with every string it holds. */
async function storedUnder(redis: Redis, prefix: string): Promise<string[]> {
  const strings: string[] = [];
  for (const key of await keysUnder(redis, prefix)) {
    const type = await redis.type(key);
    strings.push(key);
    if (type === 'string') strings.push((await redis.get(key)) ?? '');
    if (type === 'hash') strings.push(...Object.entries(await redis.hgetall(key)).flat());
    if (type === 'zset') strings.push(...(await redis.zrange(key, 0, -1)));
    if (type === 'set') strings.push(...(await redis.smembers(key)));
  }
  return strings;
}

describe('e-mail detector privacy (Redis)', () => {
  const prefix = `email-privacy-test-${randomUUID().slice(0, 8)}:`;
  const hashKey = randomUUID() + randomUUID();
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    await removeKeysUnder(redis, prefix);
    redis.disconnect();
  });

  it('when FEEDBACK_REPORT_RETENTION_DAYS has passed, a report no longer applies and its keys are gone', async () => {
    const detector = await startDetector({
      EMAIL_DNS_CHECK: 'off',
      REDIS_URL: redisUrl(),
      EMAIL_FEEDBACK_PREFIX: `${prefix}retention:`,
      PRIVACY_HASH_KEY: hashKey,
      FEEDBACK_REPORT_RETENTION_DAYS: String(3 / 86_400),
    });
    try {
      const client = `retention-${randomUUID()}`;
      expect(
        (await reportFeedback(detector.url, client, { email: 'short@example.org', label: 'spam' })).status,
      ).toBe(200);
      expect(await codesFor(detector, client, 'short@example.org')).toContain('EMAIL_REPORTED_SPAM');
      expect(await keysUnder(redis, `${prefix}retention:reports:{${client}}:`)).toHaveLength(2);
      await new Promise((resolve) => setTimeout(resolve, 3500));
      expect(await codesFor(detector, client, 'short@example.org')).not.toContain('EMAIL_REPORTED_SPAM');
      expect(await keysUnder(redis, `${prefix}retention:reports:{${client}}:`)).toEqual([]);
    } finally {
      await detector.stop();
    }
  });

  it('when an earlier version stored addresses in clear, they are migrated at start and still apply', async () => {
    const legacy = `${prefix}legacy:`;
    const client = `legacy-${randomUUID()}`;
    const checkId = randomUUID();
    // The layout of the earlier version: the mailbox in clear as the check record and as the report's key,
    // keys without the client's hash tag.
    await redis.set(`${legacy}${client}:check:${checkId}`, 'checked@example.org', 'EX', 600);
    await redis.hset(`${legacy}reports:${client}:entries`, 'reported@example.org', 'spam');
    await redis.zadd(`${legacy}reports:${client}:order`, Date.now(), 'reported@example.org');
    await redis.set(`${legacy}reports:${client}:version`, '1');
    await redis.sadd(`${legacy}reports:clients`, client);

    const detector = await startDetector({
      EMAIL_DNS_CHECK: 'off',
      REDIS_URL: redisUrl(),
      EMAIL_FEEDBACK_PREFIX: legacy,
      PRIVACY_HASH_KEY: hashKey,
    });
    try {
      const stored = await storedUnder(redis, legacy);
      expect(stored.filter((value) => value.includes('@'))).toEqual([]);
      const hash = (mailbox: string) => createHmac('sha256', hashKey).update(mailbox).digest('hex');
      // Renamed under the client's hash tag; the check record with the hash of its (campaign) domain.
      expect(await redis.exists(`${legacy}${client}:check:${checkId}`)).toBe(0);
      expect(await redis.get(`${legacy}{${client}}:check:${checkId}`)).toBe(
        `${hash('checked@example.org')}:${hash('example.org')}`,
      );
      expect(await redis.ttl(`${legacy}{${client}}:check:${checkId}`)).toBeGreaterThan(500);
      expect(await redis.hget(`${legacy}reports:{${client}}:entries`, hash('reported@example.org'))).toBe(
        'spam',
      );
      expect(await redis.exists(`${legacy}migrations:hashed-addresses`)).toBe(1);

      expect(await codesFor(detector, client, 'Reported+x@example.org')).toContain('EMAIL_REPORTED_SPAM');
      expect((await reportFeedback(detector.url, client, { check_id: checkId, label: 'spam' })).status).toBe(
        200,
      );
      expect(await codesFor(detector, client, 'checked@example.org')).toContain('EMAIL_REPORTED_SPAM');
    } finally {
      await detector.stop();
    }
  });
});
