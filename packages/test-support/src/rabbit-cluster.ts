import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  copyFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Debian's rabbitmq-server package; the scripts under /usr/sbin would switch to the rabbitmq user and the
// machine's own node, these run a node of ours.
const BIN = '/usr/lib/rabbitmq/bin';
const MACHINE_COOKIE = '/var/lib/rabbitmq/.erlang.cookie';
/** Below Linux's ephemeral range (32768 and up): a port an outgoing connection may take meanwhile would make a
 * node that restarts its listener (start_app) fail with eaddrinuse. */
const PORTS = { from: 20_000, to: 32_000 };

interface RabbitNode {
  /** The Erlang node name, e.g. `scale-1a2b-a@localhost`. */
  name: string;
  /** Its AMQP port on 127.0.0.1. */
  port: number;
  /** `amqp://guest:guest@127.0.0.1:<port>`. */
  url: string;
}

export interface RabbitCluster {
  nodes: RabbitNode[];
  /** `rabbitmqctl -n <node> <args>`; resolves with its output, rejects when it fails. */
  ctl(node: string, ...args: string[]): Promise<string>;
  /** The queues as `node` reports them (`list_queues <columns>`), one object per queue. */
  queues<Column extends string>(
    node: string,
    ...columns: Column[]
  ): Promise<Record<Column, string | number>[]>;
  /** Stops the RabbitMQ application on one node (`stop_app`): its clients are disconnected, its port closes. */
  stopApp(node: string): Promise<void>;
  /** Starts it again (`start_app`); resolves once its AMQP port answers. */
  startApp(node: string): Promise<void>;
  /** Stops every node and removes the temporary root (data, logs, config, the cookie's home). */
  stop(): Promise<void>;
}

function missingPackage(): Error {
  return new Error(
    `${BIN}/rabbitmq-server is missing: install Debian's rabbitmq-server package ` +
      '(apt-get install --no-install-recommends rabbitmq-server)',
  );
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer().once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function lowPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = PORTS.from + Math.floor(Math.random() * (PORTS.to - PORTS.from));
    if (!taken.has(port) && (await isFree(port))) {
      taken.add(port);
      return port;
    }
  }
}

/** Whether something on loopback accepts a TCP connection on `port` now. */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function until(
  what: string,
  condition: () => Promise<boolean>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    signal?.throwIfAborted();
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The temporary root: a home with the Erlang cookie, and per node its data, logs and config. */
function clusterRoot() {
  const root = mkdtempSync(join(tmpdir(), 'rabbit-cluster-'));
  const home = join(root, 'home');
  mkdirSync(home);
  const cookie = join(home, '.erlang.cookie');
  // The machine's cookie where it is readable (rabbitmqctl and the nodes agree on it), else one of our own.
  if (existsSync(MACHINE_COOKIE)) copyFileSync(MACHINE_COOKIE, cookie);
  else writeFileSync(cookie, randomBytes(20).toString('hex').toUpperCase());
  chmodSync(cookie, 0o400);
  // An empty environment file: /etc/rabbitmq/rabbitmq-env.conf names the machine's node.
  const envFile = join(root, 'rabbitmq-env.conf');
  writeFileSync(envFile, '');
  const cliEnv = {
    ...process.env,
    HOME: home,
    RABBITMQ_CONF_ENV_FILE: envFile,
    ERL_EPMD_ADDRESS: '127.0.0.1',
  };
  return { root, cliEnv };
}

function nodeEnv(
  dir: string,
  node: { name: string; port: number; distPort: number },
  base: NodeJS.ProcessEnv,
) {
  const config = join(dir, 'rabbitmq.conf');
  writeFileSync(config, [`listeners.tcp.1 = 127.0.0.1:${node.port}`, 'log.console = false', ''].join('\n'));
  const plugins = join(dir, 'enabled_plugins');
  writeFileSync(plugins, '[].\n');
  return {
    ...base,
    RABBITMQ_NODENAME: node.name,
    RABBITMQ_NODE_PORT: String(node.port),
    RABBITMQ_DIST_PORT: String(node.distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_CONFIG_FILE: config,
    RABBITMQ_ENABLED_PLUGINS_FILE: plugins,
    RABBITMQ_PID_FILE: join(dir, 'pid'),
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
  };
}

type Ctl = (node: string, ...args: string[]) => Promise<string>;
type PlannedNode = RabbitNode & { distPort: number; dir: string };

/** `rabbitmqctl -n <node> <args>` with the cluster's cookie and environment, without blocking the event loop. */
function ctlWith(env: NodeJS.ProcessEnv): Ctl {
  return (node, ...args) =>
    new Promise((resolve, reject) =>
      execFile(
        `${BIN}/rabbitmqctl`,
        ['-n', node, ...args],
        { env, timeout: 120_000 },
        (error, stdout, stderr) =>
          error
            ? reject(new Error(`rabbitmqctl -n ${node} ${args.join(' ')}: ${stderr || error.message}`))
            : resolve(stdout),
      ),
    );
}

/** Names, ports and folders of `size` nodes under `root`. */
async function planNodes(root: string, size: number): Promise<PlannedNode[]> {
  const run = randomUUID().slice(0, 4);
  const taken = new Set<number>();
  const nodes: PlannedNode[] = [];
  for (const letter of 'abcdefghij'.slice(0, size)) {
    const port = await lowPort(taken);
    const dir = join(root, letter);
    mkdirSync(dir);
    const url = `amqp://guest:guest@127.0.0.1:${port}`;
    nodes.push({ name: `scale-${run}-${letter}@localhost`, port, url, distPort: await lowPort(taken), dir });
  }
  return nodes;
}

/** Shuts a node down (`rabbitmqctl shutdown`, then SIGTERM to its script); its VM's pid is the last resort. */
async function stopNode(node: PlannedNode, child: ChildProcess | undefined, ctl: Ctl): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await ctl(node.name, 'shutdown').catch(() => undefined);
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    const pidFile = join(node.dir, 'pid');
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : 0;
    try {
      if (pid > 0) process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    child.kill('SIGKILL');
  }, 20_000);
  await exited;
  clearTimeout(timer);
}

/**
 * A RabbitMQ cluster on loopback from Debian's rabbitmq-server: `size` nodes named `scale-<run>-a@localhost`,
 * `-b`, ..., each with its own AMQP and distribution ports, data, log and config folders under one temporary
 * root, and the Erlang cookie in a HOME of its own. The second and later nodes join the first with
 * `rabbitmqctl stop_app / join_cluster / start_app`. Never touches the machine's own node. On failure, when
 * `signal` aborts the start (a test's hook that ran out of time), and with `stop()`, every node is stopped and
 * the root removed.
 */
export async function startRabbitCluster(
  options: { size?: number; signal?: AbortSignal } = {},
): Promise<RabbitCluster> {
  const { size = 3, signal } = options;
  if (!existsSync(`${BIN}/rabbitmq-server`)) throw missingPackage();
  const { root, cliEnv } = clusterRoot();
  const ctl = ctlWith(cliEnv);
  const children = new Map<string, ChildProcess>();
  let nodes: PlannedNode[] = [];
  const portOf = (name: string) => nodes.find((node) => node.name === name)?.port ?? 0;
  const stop = async (): Promise<void> => {
    await Promise.all(nodes.map((node) => stopNode(node, children.get(node.name), ctl)));
    rmSync(root, { recursive: true, force: true });
  };

  try {
    nodes = await planNodes(root, size);
    for (const node of nodes) {
      const child = spawn(`${BIN}/rabbitmq-server`, [], {
        env: nodeEnv(node.dir, node, cliEnv),
        stdio: 'ignore',
      });
      child.on('error', () => undefined);
      children.set(node.name, child);
    }
    for (const node of nodes)
      await until(`RabbitMQ node ${node.name}`, () => acceptsConnections(node.port), 180_000, signal);
    const [first, ...others] = nodes;
    for (const node of others)
      for (const args of [['stop_app'], ['join_cluster', first?.name ?? ''], ['start_app']]) {
        signal?.throwIfAborted();
        await ctl(node.name, ...args);
      }
    for (const node of others)
      await until(`RabbitMQ node ${node.name} back`, () => acceptsConnections(node.port), 60_000, signal);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    nodes: nodes.map(({ name, port, url }) => ({ name, port, url })),
    ctl,
    queues: async (node, ...columns) =>
      JSON.parse(await ctl(node, 'list_queues', ...columns, '--formatter', 'json')) as Record<
        (typeof columns)[number],
        string | number
      >[],
    stopApp: async (node) => {
      await ctl(node, 'stop_app');
    },
    startApp: async (node) => {
      await ctl(node, 'start_app');
      await until(`RabbitMQ node ${node} back`, () => acceptsConnections(portOf(node)), 60_000);
    },
    stop,
  };
}
