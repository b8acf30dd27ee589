import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@spam-check/process-kit';
import { connectRedis, createLogger } from '@spam-check/service-kit';
import { startRedisServer } from '@spam-check/test-support';
import { RedisStore } from '../../src/data-access/redis-store';
import { StoreUnavailableError } from '../../src/domain/store';
import { nowSeconds } from '../../src/domain/tokens';
import { introspect, passwordGrant, startAuth, uniqueNames, type Harness } from './harness';

/** A redis-server of this test's own, with an append-only file so its data survives a restart. */
function startRedis(port: number, dir: string): Promise<ChildProcess> {
  return startRedisServer(port, ['--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always']);
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

describe('when Redis goes down and comes back', () => {
  let port: number;
  let dir: string;
  let redis: ChildProcess;
  let h: Harness;
  beforeAll(async () => {
    port = await freePort();
    dir = mkdtempSync(join(tmpdir(), 'auth-redis-'));
    redis = await startRedis(port, dir);
    h = await startAuth('redis', { REDIS_URL: `redis://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await h?.stop().catch(() => undefined);
    await stopRedis(redis);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 within a second on token and introspection, then recovers by itself', async () => {
    const token = (await passwordGrant(h)).body;
    expect((await introspect(h, token.access_token)).body.active).toBe(true);

    await stopRedis(redis);

    let started = Date.now();
    const tokenDown = await passwordGrant(h);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(tokenDown.status).toBe(503);
    expect(tokenDown.body.error).toBe('temporarily_unavailable');
    expect(tokenDown.headers.get('retry-after')).toBe('5');

    started = Date.now();
    const introspectDown = await introspect(h, token.access_token);
    expect(introspectDown.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await fetch(`${h.url}/readyz`)).status).toBe(503);

    redis = await startRedis(port, dir);
    let recovered = 0;
    for (let i = 0; i < 50 && recovered !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      recovered = (await introspect(h, token.access_token)).status;
    }
    expect(recovered).toBe(200);
    expect((await introspect(h, token.access_token)).body.active).toBe(true);
    expect((await passwordGrant(h)).status).toBe(200);
  });
});

describe('when Redis hangs (the process is stopped, connections stay open)', () => {
  it('answers 503 within a second instead of waiting, and recovers when it resumes', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'auth-redis-'));
    const redis = await startRedis(port, dir);
    const h = await startAuth('redis', { REDIS_URL: `redis://127.0.0.1:${port}` });
    try {
      const token = (await passwordGrant(h)).body;
      redis.kill('SIGSTOP');
      const started = Date.now();
      const down = await introspect(h, token.access_token);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(down.status).toBe(503);
      redis.kill('SIGCONT');
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await introspect(h, token.access_token)).status;
      }
      expect(status).toBe(200);
    } finally {
      redis.kill('SIGCONT');
      await h.stop().catch(() => undefined);
      await stopRedis(redis);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('when Redis hangs while a refresh rotation is on its way', () => {
  it('does not consume the refresh token when Redis runs the rotation after the service gave up', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'auth-redis-'));
    const redis = await startRedis(port, dir);
    const { prefix, channel } = uniqueNames();
    const connection = await connectRedis({
      target: { kind: 'single', url: `redis://127.0.0.1:${port}` },
      name: 'redis',
      logger: createLogger({ service: 'auth-test', level: 'silent' }),
      timeoutMs: 300,
    });
    const store = new RedisStore({ connection, prefix, channel, timeoutMs: 300 });
    try {
      const iat = nowSeconds();
      const record = { clientId: 'c', username: 'u', scope: ['spam:check'], iat, family: 'f', exp: iat + 60 };
      const pair = (refreshHash: string) => ({
        accessHash: `at-${refreshHash}`,
        access: record,
        refresh: { hash: refreshHash, record: { ...record, spent: false } },
      });
      await store.saveTokens(pair('first'));

      redis.kill('SIGSTOP');
      // The script is written to the open connection and waits in Redis's socket buffer past the timeout.
      await expect(store.rotateRefreshToken('first', pair('second'))).rejects.toThrow(StoreUnavailableError);
      await new Promise((resolve) => setTimeout(resolve, 400));
      redis.kill('SIGCONT');

      let spent: boolean | undefined;
      for (let i = 0; i < 50 && spent === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        spent = await store.getRefreshToken('first').then(
          (r) => r?.spent,
          () => undefined,
        );
      }
      expect(spent).toBe(false);
      expect(await store.getRefreshToken('second')).toBeUndefined();
      expect(await store.rotateRefreshToken('first', pair('third'))).toEqual({ outcome: 'rotated' });
    } finally {
      redis.kill('SIGCONT');
      await store.close();
      await stopRedis(redis);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
