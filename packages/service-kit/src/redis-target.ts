import { z } from 'zod';
import { optionalCommaList } from './comma-list';

interface HostPort {
  host: string;
  port: number;
}

/** Where a service's Redis is: one node, a Sentinel group's current master, or a Redis Cluster. */
export type RedisTarget =
  | { kind: 'single'; url: string }
  | { kind: 'sentinel'; sentinels: HostPort[]; name: string; sentinelPassword?: string; password?: string }
  | { kind: 'cluster'; nodes: HostPort[]; password?: string };

const HOST_PORT = /^(\[[0-9a-fA-F:]+\]|[^\s:,[\]]+):(\d{1,5})$/;

const hostPorts = () =>
  optionalCommaList(
    (item) => HOST_PORT.test(item) && Number(item.split(':').pop()) <= 65535,
    (bad) => `must be host:port,...; got ${bad.join(', ') || 'none'}`,
  ).transform((items) =>
    items?.map((item) => {
      const separator = item.lastIndexOf(':');
      return {
        host: item.slice(0, separator).replace(/^\[|\]$/g, ''),
        port: Number(item.slice(separator + 1)),
      };
    }),
  );

/** The variables that say where Redis is; a service sets at most one of the three ways (see redisTargetOf). */
export const redisConfigShape = {
  REDIS_URL: z.url().optional(),
  REDIS_SENTINELS: hostPorts(),
  REDIS_SENTINEL_NAME: z.string().min(1).optional(),
  REDIS_SENTINEL_PASSWORD: z.string().min(1).optional(),
  REDIS_CLUSTER_NODES: hostPorts(),
  /** The data nodes' password (`requirepass`) under Sentinel or Cluster; a single node has it in REDIS_URL. */
  REDIS_PASSWORD: z.string().min(1).optional(),
};

export type RedisConfig = { [K in keyof typeof redisConfigShape]?: z.output<(typeof redisConfigShape)[K]> };

/** What is wrong with how the Redis variables are combined; empty when they name one target or none. */
export function redisConfigProblems(config: RedisConfig): string[] {
  const ways = [
    config.REDIS_URL !== undefined && 'REDIS_URL',
    config.REDIS_SENTINELS !== undefined && 'REDIS_SENTINELS',
    config.REDIS_CLUSTER_NODES !== undefined && 'REDIS_CLUSTER_NODES',
  ].filter(Boolean);
  const problems: string[] = [];
  if (ways.length > 1)
    problems.push(`${ways.join(', ')}: set only one of REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES`);
  if (config.REDIS_SENTINELS !== undefined && config.REDIS_SENTINEL_NAME === undefined)
    problems.push(
      'REDIS_SENTINEL_NAME: required with REDIS_SENTINELS (the master name the sentinels monitor)',
    );
  if (config.REDIS_SENTINELS === undefined)
    for (const name of ['REDIS_SENTINEL_NAME', 'REDIS_SENTINEL_PASSWORD'] as const)
      if (config[name] !== undefined)
        problems.push(`${name}: only used with REDIS_SENTINELS, which is not set`);
  if (
    config.REDIS_PASSWORD !== undefined &&
    config.REDIS_SENTINELS === undefined &&
    config.REDIS_CLUSTER_NODES === undefined
  )
    problems.push(
      'REDIS_PASSWORD: only used with REDIS_SENTINELS or REDIS_CLUSTER_NODES (a single node takes it in REDIS_URL)',
    );
  return problems;
}

/** The Redis a service connects to, or undefined when none is configured (embedded mode). */
export function redisTargetOf(config: RedisConfig): RedisTarget | undefined {
  if (config.REDIS_URL !== undefined) return { kind: 'single', url: config.REDIS_URL };
  const password = config.REDIS_PASSWORD === undefined ? {} : { password: config.REDIS_PASSWORD };
  if (config.REDIS_CLUSTER_NODES !== undefined)
    return { kind: 'cluster', nodes: config.REDIS_CLUSTER_NODES, ...password };
  if (config.REDIS_SENTINELS !== undefined && config.REDIS_SENTINEL_NAME !== undefined)
    return {
      kind: 'sentinel',
      sentinels: config.REDIS_SENTINELS,
      name: config.REDIS_SENTINEL_NAME,
      ...(config.REDIS_SENTINEL_PASSWORD === undefined
        ? {}
        : { sentinelPassword: config.REDIS_SENTINEL_PASSWORD }),
      ...password,
    };
  return undefined;
}

/** For logs: where a target points, without any password. */
export function describeRedisTarget(target: RedisTarget): string {
  const list = (items: HostPort[]) => items.map(({ host, port }) => `${host}:${port}`).join(',');
  if (target.kind === 'single') {
    const url = new URL(target.url);
    return `${url.protocol}//${url.host}${url.pathname}`;
  }
  if (target.kind === 'sentinel') return `sentinel ${target.name} via ${list(target.sentinels)}`;
  return `cluster via ${list(target.nodes)}`;
}
