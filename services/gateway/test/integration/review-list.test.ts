import { randomUUID } from 'node:crypto';
import { checkListSchema, type ReviewItem } from '@spam-check/contracts';
import { redisUrl, removeKeysUnder, TcpProxy, wholeList } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { json, obtainToken, OTHER_CLIENT, type Running } from './support/servers';
import { startStack, type Stack } from './support/stack';

// The review list's storage choices (docs/review.md): memory in embedded mode, nothing with a retention of 0,
// a bounded list per client, and Redis down. What is listed and to whom is tested end to end
// (test/e2e/review.test.ts).

describe('the review list', () => {
  let stack: Stack;
  const prefix = `test:gateway:${randomUUID()}:`;
  /** In front of Redis for the gateway that loses it; closed once that gateway has stopped. */
  let proxy: TcpProxy | undefined;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.stop();
    await proxy?.close();
    const redis = new Redis(redisUrl());
    await removeKeysUnder(redis, prefix).finally(() => redis.quit());
  });

  const check = (gateway: Running, token: string, index: number) =>
    fetch(`${gateway.url}/api/v1/spam/text`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: `Title ${index}`,
        body: `Body number ${index} at https://example.org/x`,
      }),
    });
  const list = (gateway: Running, token: string, query = '') =>
    fetch(`${gateway.url}/api/v1/checks${query}`, { headers: { Authorization: `Bearer ${token}` } });

  /** The whole list, read page by page once it holds `count` checks (they are kept once answered). */
  async function listed(
    gateway: Running,
    token: string,
    count: number,
    limit: number,
  ): Promise<ReviewItem[]> {
    return wholeList(async (cursor) => {
      const response = await list(
        gateway,
        token,
        `?limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      expect(response.status).toBe(200);
      const page = checkListSchema.parse(await json(response));
      expect(page.items.length).toBeLessThanOrEqual(limit);
      return page;
    }, count);
  }

  it('when the gateway runs without Redis, the list is kept in memory, paged and per client', async () => {
    const gateway = await stack.gateway({});
    const token = await obtainToken(gateway.url);
    const other = await obtainToken(gateway.url, OTHER_CLIENT);
    const ids: string[] = [];
    for (let index = 0; index < 7; index += 1) {
      const response = await check(gateway, token, index);
      expect(response.status).toBe(200);
      ids.push(((await json(response)) as { id: string }).id);
    }
    const items = await listed(gateway, token, ids.length, 3);
    expect(items.map((item) => item.id)).toEqual([...ids].reverse());
    // Digits and links masked: the canonical text, not what was written.
    expect(items[0]!.preview).toEqual({ title: 'title 0', body: 'body number 0 at urltok' });
    expect(await listed(gateway, other, 0, 3)).toEqual([]);
  });

  it('when FEEDBACK_RETENTION_SECONDS is 0, checks are answered and none is listed', async () => {
    const gateway = await stack.gateway({
      REDIS_URL: redisUrl(),
      REDIS_KEY_PREFIX: prefix,
      FEEDBACK_RETENTION_SECONDS: '0',
    });
    const token = await obtainToken(gateway.url);
    expect((await check(gateway, token, 1)).status).toBe(200);
    const redis = new Redis(redisUrl());
    try {
      const answer = checkListSchema.parse(await json(await list(gateway, token)));
      expect(answer).toMatchObject({ items: [], next_cursor: null });
      const [, keys] = await redis.scan('0', 'MATCH', `${prefix}review:*`, 'COUNT', 1000);
      expect(keys).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });

  it('when a client has more checks than REVIEW_MAX_CHECKS_PER_CLIENT, only its newest are kept', async () => {
    const gateway = await stack.gateway({
      REDIS_URL: redisUrl(),
      REDIS_KEY_PREFIX: `${prefix}capped:`,
      REVIEW_MAX_CHECKS_PER_CLIENT: '3',
    });
    const token = await obtainToken(gateway.url);
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1)
      ids.push(((await json(await check(gateway, token, index))) as { id: string }).id);
    let items: ReviewItem[] = [];
    for (let attempt = 0; attempt < 100; attempt += 1) {
      items = await listed(gateway, token, 3, 10);
      if (items[0]?.id === ids[4]) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(items.map((item) => item.id)).toEqual(ids.slice(2).reverse());
  });

  it('when Redis cannot be reached, the list answers 503 with Retry-After', async () => {
    proxy = await TcpProxy.start(redisUrl(), 6379);
    const gateway = await stack.gateway({ REDIS_URL: proxy.url, REDIS_KEY_PREFIX: `${prefix}down:` });
    const token = await obtainToken(gateway.url);
    proxy.freeze();
    const response = await list(gateway, token);
    proxy.thaw();
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await json(response)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
