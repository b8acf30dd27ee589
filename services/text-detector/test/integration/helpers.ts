import {
  createLogger,
  createMetrics,
  evaluateReadiness,
  serve,
  type Env,
  type Metrics,
} from '@spam-check/service-kit';
import { createRpcClient, rpcQueueName, type RpcClient } from '@spam-check/amqp-rpc';
import { amqpUrl } from '@spam-check/test-support';
import { connect } from 'amqplib';
import { loadServiceConfig } from '../../src/config';
import { compose, composeTextCheck, consumeRpcQueue } from '../../src/compose';

export interface StartedDetector {
  url: string;
  metrics: Metrics;
  stop: () => Promise<void>;
}

/** Starts the real app on port 0 with the given environment (LLM off unless the env says otherwise). */
export async function startDetector(env: Env = {}): Promise<StartedDetector> {
  const config = loadServiceConfig({ LOG_LEVEL: 'silent', TEXT_LLM_MODE: 'never', ...env });
  const logger = createLogger({ service: 'text-detector-test', level: 'silent' });
  const metrics = createMetrics('text-detector');
  // Wired as main.ts wires it (without AMQP_URL, so no RPC consumer).
  const { app, readiness, closers } = await compose({ config, logger, metrics });
  const service = await serve(app, { port: 0, host: '127.0.0.1', logger, readiness, closers });
  // Like an orchestrator, send traffic only once /readyz would say ready (e.g. Redis connected).
  for (let attempt = 0; !(await evaluateReadiness(readiness)).ready; attempt += 1) {
    if (attempt === 50) throw new Error('the text detector did not become ready within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${service.port}`, metrics, stop: service.stop };
}

/**
 * The detector started before the calling suite's tests and stopped after them: the object returned holds
 * the running detector's fields during the tests.
 */
export function detectorForSuite(env: Env = {}): StartedDetector {
  const detector = {} as StartedDetector;
  beforeAll(async () => {
    Object.assign(detector, await startDetector(env));
  });
  afterAll(() => detector.stop());
  return detector;
}

async function postJson<Body>(url: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

/** `POST /v1/check` of the detector at `url`. */
export const check = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  postJson<Record<string, unknown>>(`${url}/v1/check`, body, headers);

/** `POST /v1/check/batch` of the detector at `url`. */
export const checkBatch = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  postJson<{ results: unknown[]; code?: string }>(`${url}/v1/check/batch`, body, headers);

export interface RpcDetector {
  /** An RPC client on the same broker; call it with the detector's TEXT_RPC_QUEUE. */
  client: RpcClient;
  /** Closes the client, the consumer and the check's stores, and deletes the queue. */
  stop: () => Promise<void>;
}

/**
 * The text check composed as main.ts composes it, consuming TEXT_RPC_QUEUE (with TEXT_RPC_PREFETCH) on the
 * real RabbitMQ; LLM off unless the env says otherwise.
 */
export async function startRpcDetector(env: Env): Promise<RpcDetector> {
  const config = loadServiceConfig({ LOG_LEVEL: 'silent', TEXT_LLM_MODE: 'never', ...env });
  const logger = createLogger({ service: 'text-detector-test', level: 'silent' });
  const { checkText, closers } = await composeTextCheck(config, logger, createMetrics('text-detector'));
  const server = consumeRpcQueue(config, [amqpUrl()], logger, checkText);
  await server.ready();
  const client = createRpcClient({ url: amqpUrl(), logger });
  await client.ready();
  return {
    client,
    async stop() {
      await client.close();
      await server.close();
      for (const closer of closers) await closer.close();
      const connection = await connect(amqpUrl());
      const channel = await connection.createChannel();
      await channel.deleteQueue(rpcQueueName(config.TEXT_RPC_QUEUE, config.RPC_QUEUE_TYPE));
      await connection.close();
    },
  };
}
