import { ConfigError, loadConfig, redisConfigShape, redisTargetOf } from '@spam-check/service-kit';
import { z } from 'zod';

const schema = z.object(redisConfigShape);

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(schema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('redisTargetOf', () => {
  it('when nothing is set, there is no target (embedded mode)', () => {
    expect(redisTargetOf(loadConfig(schema, {}))).toBeUndefined();
  });

  it('when REDIS_URL is set, the target is that one node', () => {
    expect(redisTargetOf(loadConfig(schema, { REDIS_URL: 'redis://10.0.0.1:6379/2' }))).toEqual({
      kind: 'single',
      url: 'redis://10.0.0.1:6379/2',
    });
  });

  it('when REDIS_SENTINELS and REDIS_SENTINEL_NAME are set, the target is the sentinels with their password', () => {
    const config = loadConfig(schema, {
      REDIS_SENTINELS: 'sentinel-0:26379, sentinel-1:26379,[::1]:26380',
      REDIS_SENTINEL_NAME: 'spam-check',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
      REDIS_PASSWORD: 'data-secret',
    });
    expect(redisTargetOf(config)).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 'sentinel-0', port: 26379 },
        { host: 'sentinel-1', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'spam-check',
      sentinelPassword: 'sentinel-secret',
      password: 'data-secret',
    });
  });

  it('when REDIS_CLUSTER_NODES is set, the target is the cluster seeded by those nodes', () => {
    expect(redisTargetOf(loadConfig(schema, { REDIS_CLUSTER_NODES: 'redis-0:6379,redis-1:6379' }))).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'redis-0', port: 6379 },
        { host: 'redis-1', port: 6379 },
      ],
    });
  });

  it('when REDIS_PASSWORD is set with REDIS_CLUSTER_NODES, every node is asked with it', () => {
    expect(
      redisTargetOf(
        loadConfig(schema, { REDIS_CLUSTER_NODES: 'redis-0:6379', REDIS_PASSWORD: 'data-secret' }),
      ),
    ).toEqual({ kind: 'cluster', nodes: [{ host: 'redis-0', port: 6379 }], password: 'data-secret' });
  });

  it('when REDIS_PASSWORD comes with REDIS_URL, configuration fails pointing at the URL', () => {
    expect(problemsOf({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PASSWORD: 'x' })).toEqual([
      'REDIS_PASSWORD: only used with REDIS_SENTINELS or REDIS_CLUSTER_NODES (a single node takes it in REDIS_URL)',
    ]);
  });

  it('when two ways are set, configuration fails naming both', () => {
    expect(problemsOf({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: 'a:1' })).toEqual([
      'REDIS_URL, REDIS_CLUSTER_NODES: set only one of REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES',
    ]);
  });

  it('when REDIS_SENTINELS lacks REDIS_SENTINEL_NAME, configuration fails asking for it', () => {
    expect(problemsOf({ REDIS_SENTINELS: 'a:26379' })).toEqual([
      expect.stringMatching(/^REDIS_SENTINEL_NAME: required with REDIS_SENTINELS/),
    ]);
  });

  it('when sentinel variables come without REDIS_SENTINELS, configuration fails instead of ignoring them', () => {
    expect(problemsOf({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_SENTINEL_NAME: 'x' })).toEqual([
      'REDIS_SENTINEL_NAME: only used with REDIS_SENTINELS, which is not set',
    ]);
  });

  it.each(['redis-0', 'redis-0:port', 'redis-0:70000', ',', 'a:1;b:2'])(
    'when a node list is %p, configuration fails showing the bad entries',
    (value) => {
      expect(problemsOf({ REDIS_CLUSTER_NODES: value })).toEqual([
        expect.stringMatching(/^REDIS_CLUSTER_NODES: must be host:port,\.\.\.; got /),
      ]);
    },
  );
});
