import {
  createLogger,
  createMetrics,
  evaluateReadiness,
  serve,
  type Env,
  type Metrics,
} from '@spam-check/service-kit';
import { loadServiceConfig } from '../src/config';
import { compose } from '../src/compose';

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

export async function check(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/v1/check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
