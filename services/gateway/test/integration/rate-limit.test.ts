import { randomUUID } from 'node:crypto';
import { freePort } from '@spam-check/process-kit';
import { redisUrl, removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { OTHER_CLIENT, json, obtainToken, type Running } from './support/servers';
import { startStack, type Stack } from './support/stack';

describe('rate limits per client', () => {
  let stack: Stack;
  const prefix = `test:gateway:${randomUUID()}:`;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.stop();
    // The window's count and the usage counts (written after each answer) of the Redis case.
    const redis = new Redis(redisUrl());
    await removeKeysUnder(redis, prefix).finally(() => redis.quit());
  });

  const gatewayWith = (env: Record<string, string>) =>
    stack.gateway({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '60', ...env });

  const check = (gateway: Running, token: string) =>
    fetch(`${gateway.url}/deapi/v1/spam/mail`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.org' }),
    });

  async function expectLimitEnforced(gateways: Running[]) {
    const token = await obtainToken(gateways[0]!.url);
    const before = stack.email.requests.length;
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await check(gateways[i % gateways.length]!, token);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBe('3');
      expect(response.headers.get('ratelimit-policy')).toBe('3;w=60');
      remaining.push(response.headers.get('ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await check(gateways.at(-1)!, token);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-reset')).toBe(String(retryAfter));
    expect(await json(refused)).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(stack.email.requests).toHaveLength(before + 3);
  }

  it('with Redis, the fourth request in the window is 429, counted across gateway replicas', async () => {
    const replicas = [
      await gatewayWith({ REDIS_URL: redisUrl(), REDIS_KEY_PREFIX: prefix }),
      await gatewayWith({ REDIS_URL: redisUrl(), REDIS_KEY_PREFIX: prefix }),
    ];
    await expectLimitEnforced(replicas);
  });

  it('without Redis (embedded), the limit is kept in memory', async () => {
    await expectLimitEnforced([await gatewayWith({})]);
  });

  it('each client has its own budget', async () => {
    const gateway = await gatewayWith({ RATE_LIMIT_REQUESTS: '1' });
    const token = await obtainToken(gateway.url);
    expect((await check(gateway, token)).status).toBe(200);
    expect((await check(gateway, token)).status).toBe(429);
    const other = await check(gateway, await obtainToken(gateway.url, OTHER_CLIENT));
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('when Redis is unreachable, checks fail closed with 503', async () => {
    const gateway = await gatewayWith({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    const token = await obtainToken(gateway.url);
    const before = stack.email.requests.length;
    const response = await check(gateway, token);
    expect(response.status).toBe(503);
    expect((await json(response)).code).toBe('SERVICE_UNAVAILABLE');
    expect(stack.email.requests).toHaveLength(before);
  });
});
