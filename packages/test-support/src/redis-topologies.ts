import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';

const REDIS_SERVER = '/usr/bin/redis-server';
const REDIS_CLI = '/usr/bin/redis-cli';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RedisTopology {
  /** Every node's port, in start order. */
  ports: number[];
  /** The port of the master that holds `key`'s slot now (a cluster), or the master (Sentinel). */
  masterOf(key: string): number;
  /** Stops every process (SIGKILL of `port` only: a master lost without a goodbye). */
  kill(port: number): void;
  /** Stops every process and removes the data folders. */
  stop(): Promise<void>;
}

function missingPackage(): Error {
  return new Error(
    `${REDIS_SERVER} or ${REDIS_CLI} is missing: install Debian's redis package ` +
      '(apt-get install --no-install-recommends redis-server redis-tools)',
  );
}

function cli(port: number, ...args: string[]): string {
  const result = spawnSync(REDIS_CLI, ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`;
}

async function until(what: string, condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Processes of one topology, each with its own folder under one temporary root, all removed at the end. */
function processGroup(name: string) {
  const root = mkdtempSync(join(tmpdir(), `${name}-`));
  const children = new Map<number, ChildProcess>();
  return {
    root,
    children,
    start: (port: number, args: string[]): void => {
      const dir = join(root, String(port));
      mkdirSync(dir);
      const child = spawn(REDIS_SERVER, args, { cwd: dir, stdio: 'ignore' });
      child.on('error', () => undefined);
      children.set(port, child);
    },
    kill: (port: number): void => {
      children.get(port)?.kill('SIGKILL');
    },
    pause: (port: number, paused: boolean): void => {
      children.get(port)?.kill(paused ? 'SIGSTOP' : 'SIGCONT');
    },
    stop: async (): Promise<void> => {
      await Promise.all(
        [...children.values()].map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
        ),
      );
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const CLUSTER_NODE_TIMEOUT_MS = 2000;

/** What a data node needs for a password: its own `requirepass`, and `masterauth` to replicate. */
const passwordArgs = (password?: string) =>
  password === undefined ? [] : ['--requirepass', password, '--masterauth', password];
/** redis-cli's arguments for a data node with that password. */
const auth = (password?: string) => (password === undefined ? [] : ['-a', password, '--no-auth-warning']);

export interface TopologyOptions {
  /** The data nodes' password (`requirepass`); none by default. */
  password?: string;
}

const nodeArgs = (port: number) => [
  '--port',
  String(port),
  '--bind',
  '127.0.0.1',
  '--save',
  '',
  '--appendonly',
  'no',
  '--dir',
  '.',
];

/**
 * A Redis Cluster on loopback from Debian's redis-server: three masters with one replica each, on free
 * ports, created by `redis-cli --cluster create`. Resolves once every node reports the cluster ok and every
 * replica is in sync.
 */
export async function startRedisCluster({ password }: TopologyOptions = {}): Promise<RedisTopology> {
  const masters = 3;
  const group = processGroup('redis-cluster');
  const node = (port: number, ...args: string[]) => cli(port, ...auth(password), ...args);
  const ports: number[] = [];
  try {
    for (let i = 0; i < masters * 2; i++) {
      const port = await freePort();
      ports.push(port);
      group.start(port, [
        ...nodeArgs(port),
        ...passwordArgs(password),
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        // A master unreachable for this long is failed over to its replica (Redis's default is 15 s).
        '--cluster-node-timeout',
        String(CLUSTER_NODE_TIMEOUT_MS),
      ]);
    }
    for (const port of ports) await until(`redis node ${port}`, () => node(port, 'ping').trim() === 'PONG');
    const created = spawnSync(
      REDIS_CLI,
      [
        '--cluster',
        'create',
        ...auth(password),
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ],
      { encoding: 'utf8' },
    );
    if (created.status !== 0)
      throw new Error(`redis-cli --cluster create failed:\n${created.stdout}${created.stderr}`);
    for (const port of ports)
      await until(`cluster state ok on ${port}`, () =>
        /cluster_state:ok/.test(node(port, 'cluster', 'info')),
      );
    // A replica that has not synchronised with its master once is never promoted: a master killed before
    // then would stay lost.
    for (const port of ports)
      await until(`replica ${port} in sync`, () => {
        const replication = node(port, 'info', 'replication');
        return /role:master/.test(replication) || /master_link_status:up/.test(replication);
      });
  } catch (error) {
    await group.stop();
    throw (error as NodeJS.ErrnoException).code === 'ENOENT' ? missingPackage() : error;
  }
  const masterOf = (key: string): number => {
    const alive = ports.find((port) => /PONG/.test(node(port, 'ping')))!;
    const slot = Number(node(alive, 'cluster', 'keyslot', key).trim());
    // `CLUSTER NODES` lines: id, ip:port@bus, flags, master id, ..., then the slot ranges the node serves.
    for (const line of node(alive, 'cluster', 'nodes').split('\n')) {
      const [, address, flags, , , , , , ...ranges] = line.split(' ');
      if (!flags?.includes('master') || flags.includes('fail')) continue;
      const serves = ranges.some((range) => {
        const [from, to = from] = range.split('-').map(Number);
        return slot >= from! && slot <= to!;
      });
      if (serves) return Number(address!.split('@')[0]!.split(':')[1]);
    }
    throw new Error(`no master serves slot ${slot} of ${key}`);
  };
  return { ports, masterOf, kill: group.kill, stop: group.stop };
}

export interface SentinelGroup extends RedisTopology {
  masterName: string;
  sentinelPorts: number[];
  /** The port of the master the sentinels name now. */
  masterPort(): number;
  /** Stalls a sentinel or a node (SIGSTOP), or lets it go on (SIGCONT). */
  pause(port: number, paused: boolean): void;
}

/**
 * A Sentinel group on loopback: one master, one replica and three sentinels (quorum two) that declare the
 * master down after one second. Resolves once every sentinel knows the master and its replica.
 */
export async function startSentinelGroup({ password }: TopologyOptions = {}): Promise<SentinelGroup> {
  const masterName = 'spam-check';
  const group = processGroup('redis-sentinel');
  const [master, replica] = [await freePort(), await freePort()];
  const sentinelPorts = [await freePort(), await freePort(), await freePort()];
  const [firstSentinel] = sentinelPorts as [number];
  const masterPort = () =>
    Number(cli(firstSentinel, 'sentinel', 'get-master-addr-by-name', masterName).split('\n')[1]);
  try {
    group.start(master, [...nodeArgs(master), ...passwordArgs(password)]);
    group.start(replica, [
      ...nodeArgs(replica),
      ...passwordArgs(password),
      '--replicaof',
      '127.0.0.1',
      String(master),
    ]);
    for (const port of sentinelPorts) {
      // A sentinel rewrites its configuration file, so each has one of its own.
      const file = join(group.root, `sentinel-${port}.conf`);
      writeFileSync(
        file,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `sentinel monitor ${masterName} 127.0.0.1 ${master} 2`,
          `sentinel down-after-milliseconds ${masterName} 1000`,
          `sentinel failover-timeout ${masterName} 5000`,
          ...(password === undefined ? [] : [`sentinel auth-pass ${masterName} ${password}`]),
          '',
        ].join('\n'),
      );
      group.start(port, [file, '--sentinel']);
    }
    await until(`replica ${replica} in sync`, () =>
      /master_link_status:up/.test(cli(replica, ...auth(password), 'info', 'replication')),
    );
    for (const port of sentinelPorts)
      await until(`sentinel ${port} sees the replica`, () =>
        /^1$/m.test(cli(port, 'sentinel', 'master', masterName).split('num-slaves\n')[1] ?? ''),
      );
  } catch (error) {
    await group.stop();
    throw (error as NodeJS.ErrnoException).code === 'ENOENT' ? missingPackage() : error;
  }
  return {
    ports: [master, replica],
    masterOf: masterPort,
    sentinelPorts,
    masterName,
    masterPort,
    kill: group.kill,
    pause: group.pause,
    stop: group.stop,
  };
}
