import { randomUUID } from 'node:crypto';
import { redisCampaignMemory, redisCheckMemory, redisClientMap } from '../../packages/client-state/src';
import {
  Counter,
  connectRedis,
  createLogger,
  createMetrics,
  type RedisConnection,
} from '@spam-check/service-kit';
import { startRedisCluster, type RedisTopology } from '@spam-check/test-support';
import { Cluster } from 'ioredis';
import { RedisStore } from '../../services/auth/src/data-access/redis-store';
import { nowSeconds } from '../../services/auth/src/domain/tokens';
import { redisReviewStore } from '../../services/gateway/src/data-access/review-store';
import { redisRateLimitStore } from '../../services/gateway/src/data-access/rate-limit-store';
import { redisUsageStore } from '../../services/gateway/src/data-access/usage-store';

/**
 * Every store's Redis operations on a Redis Cluster of three masters with a replica each: a command whose keys
 * span slots fails with CROSSSLOT (or, in a pipeline, with ioredis's refusal), which fails the test.
 */
const logger = createLogger({ service: 'scale-test', level: 'silent' });
const [FIRST, SECOND, BUSY] = ['client-first', 'client-second', 'client-busy'] as const;
const CLIENTS = [FIRST, SECOND, BUSY, ...Array.from({ length: 21 }, (_, i) => `client-${i}`)];

describe('the stores on a Redis Cluster', () => {
  let cluster: RedisTopology;
  let connection: RedisConnection;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    connection = await connectRedis({
      target: {
        kind: 'cluster',
        nodes: cluster.ports.slice(0, 2).map((port) => ({ host: '127.0.0.1', port })),
      },
      name: 'redis',
      logger,
    });
  }, 120_000);
  afterAll(async () => {
    await connection?.closer.close();
    await cluster?.stop();
  });

  it('when connected through REDIS_CLUSTER_NODES, the factory gives a cluster client that passes its check', async () => {
    expect(connection.client).toBeInstanceOf(Cluster);
    await expect(connection.check()).resolves.toBeUndefined();
    expect((connection.client as Cluster).nodes('master')).toHaveLength(3);
  });

  it('when check records of many clients are erased by value and rewritten, every master is scanned', async () => {
    const memory = redisCheckMemory(connection.client, 'scale:checks:', 60);
    const firstId = randomUUID();
    await Promise.all(
      CLIENTS.map((client) => memory.remember(client, client === FIRST ? firstId : randomUUID(), 'value-a')),
    );
    const masters = (connection.client as Cluster).nodes('master');
    const perMaster = await Promise.all(
      masters.map(async (node) => (await node.keys('scale:checks:*')).length),
    );
    expect(perMaster.filter((count) => count > 0).length).toBeGreaterThan(1);

    expect(await memory.rewriteValues((value) => (value === 'value-a' ? 'value-b' : value))).toBe(
      CLIENTS.length,
    );
    expect(await memory.recall(FIRST, firstId)).toBe('value-b');
    expect(await memory.eraseClient(FIRST)).toBe(1);
    expect(await memory.eraseValue('value-b')).toBe(CLIENTS.length - 1);
  });

  it('when client maps are written, read, listed and erased, their script and transactions stay in one slot', async () => {
    const map = redisClientMap(connection.client, 'scale:reports:', 10, 3600);
    await Promise.all(
      CLIENTS.map((client) =>
        map.update(client, [
          ['k1', 'v1'],
          ['k2', 'v2'],
        ]),
      ),
    );
    await map.update(FIRST, [['k3', 'v3']], ['k1']);
    expect(await map.getMany(FIRST, ['k1', 'k2', 'k3'])).toEqual([undefined, 'v2', 'v3']);
    expect(await map.all(SECOND)).toEqual([
      ['k1', 'v1'],
      ['k2', 'v2'],
    ]);
    expect((await map.clients()).sort()).toEqual([...CLIENTS].sort());
    expect(await map.eraseKey('k2')).toBe(CLIENTS.length);
    for (const client of CLIENTS) await map.eraseClient(client);
    expect(await map.get(SECOND, 'k1')).toBeUndefined();
  });

  it('when campaigns are reported and a client is erased, every master is scanned for its marks', async () => {
    const campaigns = redisCampaignMemory(connection.client, 'scale:campaigns:', {
      key: 'k',
      ttlSeconds: 60,
      maxPerClient: 100,
    });
    const signatures = Array.from({ length: 24 }, (_, i) => `signature-${i}`);
    await campaigns.report('a', signatures, 'spam', 'report-a');
    await campaigns.report('b', signatures.slice(0, 2), 'spam', 'report-b');
    expect(await campaigns.reporters(signatures.slice(0, 3))).toEqual([2, 2, 1]);
    expect(await campaigns.eraseClient('a')).toBe(signatures.length);
    expect(await campaigns.eraseSignatures(signatures)).toBe(2);
  });

  it('when auth keeps clients, tokens, families and attempts under a hash-tagged prefix, its scripts run', async () => {
    const store = new RedisStore({
      connection,
      prefix: '{scale-auth}:',
      channel: 'scale:revocations',
      timeoutMs: 1000,
    });
    const client = { id: 'c1', secretHash: 'h', grants: ['password'], scopes: ['spam:check'] };
    expect(await store.createClient(client)).toBe(true);
    expect(await store.listClients()).toEqual([client]);
    const iat = nowSeconds();
    const base = { clientId: 'c1', username: 'u', scope: ['spam:check'], iat, family: 'f1' };
    await store.saveTokens({
      accessHash: 'a1',
      access: { ...base, exp: iat + 60 },
      refresh: { hash: 'r1', record: { ...base, exp: iat + 600, spent: false } },
    });
    const rotated = await store.rotateRefreshToken('r1', {
      accessHash: 'a2',
      access: { ...base, exp: iat + 60 },
      refresh: { hash: 'r2', record: { ...base, exp: iat + 600, spent: false } },
    });
    expect(rotated).toEqual({ outcome: 'rotated' });
    expect(await store.getActiveAccessToken('a2')).toMatchObject({ family: 'f1' });
    expect((await store.revokeClientTokens('c1')).length).toBeGreaterThan(0);
    expect(await store.getActiveAccessToken('a2')).toBeUndefined();
    expect(
      await store.reserveAttempts(
        [
          { key: 'u', max: 2 },
          { key: 'ip', max: 5 },
        ],
        60,
      ),
    ).toEqual({ allowed: true });
    await store.releaseAttempts(['u', 'ip']);
    await store.resetAttempts('u');
    expect(await store.deleteClient('c1')).toBe(true);
  });

  it('when a client with review items is erased, its keys and its place in the list of clients go', async () => {
    const review = redisReviewStore(connection.client, 'scale:review:', {
      retentionSeconds: 60,
      maxPerClient: 10,
    });
    expect(await review.eraseClient(FIRST)).toBe(0);
    expect(await review.eraseEmail('no-such-hash')).toBe(0);
  });

  it('when the gateway counts rate limits and usage of many clients, the counts land and read back', async () => {
    const limits = redisRateLimitStore(connection.client, 'scale:gateway:', 100);
    expect((await limits.take('c1', 60_000, 3)).granted).toBe(3);
    const usage = redisUsageStore({
      redis: connection.client,
      prefix: 'scale:gateway:',
      logger,
      lost: new Counter({
        name: 'scale_usage_lost_total',
        help: 'test',
        labelNames: ['kind'] as const,
        registers: [createMetrics('gateway').registry],
      }),
    });
    for (const clientId of CLIENTS)
      usage.recordCheck({ clientId, kind: 'text', verdict: 'spam', reasons: [], durationMs: 5 });
    await usage.flush();
    const now = new Date();
    const stats = await usage.stats(BUSY, new Date(now.getTime() - 3600_000), now, 'hour');
    expect(stats.totals.text.spam).toBe(1);
    await usage.recordAdminAction({
      at: now.toISOString(),
      actor: { client_id: 'admin', username: 'admin' },
      action: 'settings.update',
      client_id: BUSY,
      status: 200,
      request_id: 'r1',
    });
    expect(
      (await usage.stats(BUSY, new Date(now.getTime() - 3600_000), now, 'hour')).recent_admin_actions,
    ).toHaveLength(1);
    expect(await usage.eraseRecentFeedback(BUSY)).toBe(0);
  });
});
