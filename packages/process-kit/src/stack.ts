import { freePort } from './ports';
import {
  SERVICES,
  spawnService,
  stopService,
  waitForReady,
  type ServiceName,
  type ServiceProcess,
} from './services';

export interface Stack<Name extends ServiceName = ServiceName> {
  /** The gateway's public URL. */
  gateway: string;
  services: Record<Name, ServiceProcess>;
  /** Starts a service again on its port with its environment (stopping it first if it still runs). */
  restart: (name: Name) => Promise<ServiceProcess>;
  stop: () => Promise<void>;
}

/**
 * The environment of a stack with nothing outside it (tests, examples, benches that need no shared
 * infrastructure): memory stores instead of Redis, no RabbitMQ, no LLM, no DNS lookups.
 */
export const SELF_CONTAINED_ENV = {
  REDIS_URL: undefined,
  AMQP_URL: undefined,
  OPENAI_API_KEY: undefined,
  EMAIL_DNS_CHECK: 'off',
};

export interface StackOptions<Name extends ServiceName> {
  /** How long each service may take to be ready (20 s): longer under load (the text detector loads a model). */
  readyTimeoutMs?: number;
  /**
   * The services to start, the gateway among them (all four by default). The others get a port with
   * nothing listening, and the gateway counts as ready without their readiness checks.
   */
  services?: readonly Name[];
  /** Node options per service, e.g. `{ gateway: ['--cpu-prof'] }` to profile it in a bench. */
  nodeArgs?: Partial<Record<Name, readonly string[]>>;
}

/**
 * The system as separate processes on free ports, wired together by environment variables, as in
 * production. `env` is added to every service's environment (e.g. REDIS_URL, AMQP_URL, AUTH_BOOTSTRAP_FILE).
 */
export async function startStack<Name extends ServiceName = ServiceName>(
  env: Record<string, string | undefined> = {},
  options: StackOptions<Name> = {},
): Promise<Stack<Name>> {
  const names = (options.services ?? SERVICES) as readonly Name[];
  if (!names.includes('gateway' as Name))
    throw new Error('startStack: the services must include the gateway');
  const ports = Object.fromEntries(
    await Promise.all(SERVICES.map(async (name) => [name, await freePort()])),
  ) as Record<ServiceName, number>;
  const wiring = {
    LOG_LEVEL: 'warn',
    GATEWAY_MANAGEMENT_PORT: String(await freePort()),
    AUTH_URL: `http://127.0.0.1:${ports.auth}`,
    EMAIL_DETECTOR_URL: `http://127.0.0.1:${ports['email-detector']}`,
    TEXT_DETECTOR_URL: `http://127.0.0.1:${ports['text-detector']}`,
    ...env,
  };
  const ready = {
    timeoutMs: options.readyTimeoutMs,
    ignoreChecks: SERVICES.filter((name) => !names.includes(name as Name)),
  };
  const spawnOptions = (name: Name) => ({ nodeArgs: options.nodeArgs?.[name] ?? [] });
  const services = Object.fromEntries(
    names.map((name) => [name, spawnService(name, wiring, ports[name], spawnOptions(name))]),
  ) as Record<Name, ServiceProcess>;
  const stop = async () => {
    await Promise.all(Object.values<ServiceProcess>(services).map(stopService));
  };
  try {
    await Promise.all(Object.values<ServiceProcess>(services).map((service) => waitForReady(service, ready)));
  } catch (error) {
    await stop();
    throw error;
  }
  const restart = async (name: Name) => {
    await stopService(services[name]);
    services[name] = spawnService(name, wiring, ports[name], spawnOptions(name));
    await waitForReady(services[name], ready);
    return services[name];
  };
  return { gateway: `http://127.0.0.1:${ports.gateway}`, services, restart, stop };
}
