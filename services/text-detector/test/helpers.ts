import {
  createLogger,
  createMetrics,
  createReadiness,
  evaluateReadiness,
  serve,
  type Env,
  type Metrics,
} from '@spam-check/service-kit';
import { createApp } from '../src/app';
import { loadServiceConfig } from '../src/config';
import { composeTextCheck } from '../src/compose';

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
  const { checkText, feedback, learnText, checks, closers } = await composeTextCheck(config, logger, metrics);
  const readiness = createReadiness(checks);
  const app = createApp({ config, logger, metrics, readiness, checkText, feedback, learnText });
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
