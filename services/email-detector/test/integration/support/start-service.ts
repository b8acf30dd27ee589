import {
  createLogger,
  createMetrics,
  createReadiness,
  serve,
  type Env,
  type RunningService,
} from '@spam-check/service-kit';
import { createApp } from '../../../src/app';
import { loadServiceConfig } from '../../../src/config';
import { createEmailChecker, createFeedbackStorage, type EmailChecker } from '../../../src/compose';

type Json = any;

export interface StartedDetector {
  url: string;
  checker: EmailChecker;
  service: RunningService;
  /** POST /v1/check with a JSON body; returns status, headers and parsed body. */
  check(
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; body: Json }>;
  stop(): Promise<void>;
}

/** The real app, wired as main.ts wires it, listening on 127.0.0.1 with an ephemeral port. */
export async function startDetector(env: Env): Promise<StartedDetector> {
  const config = loadServiceConfig({ LOG_LEVEL: 'silent', ...env });
  const logger = createLogger({ service: 'email-detector', level: config.LOG_LEVEL });
  const metrics = createMetrics('email-detector');
  const storage = await createFeedbackStorage(config, logger);
  const readiness = createReadiness(storage.checks);
  const checker = createEmailChecker(config, metrics, storage.feedback);
  const app = createApp({ config, logger, metrics, readiness, checker });
  const service = await serve(app, {
    port: 0,
    host: '127.0.0.1',
    logger,
    readiness,
    closers: storage.closers,
  });
  const url = `http://127.0.0.1:${service.port}`;
  return {
    url,
    checker,
    service,
    async check(body, headers = {}) {
      const response = await fetch(`${url}/v1/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        body: text ? JSON.parse(text) : undefined,
      };
    },
    async stop() {
      await service.stop();
      checker.mailServers?.close();
    },
  };
}

/**
 * The detector started before the calling suite's tests and stopped after them: the object returned holds
 * the running detector's fields during the tests.
 */
export function detectorForSuite(env: Env): StartedDetector {
  const detector = {} as StartedDetector;
  beforeAll(async () => {
    Object.assign(detector, await startDetector(env));
  });
  afterAll(() => detector.stop());
  return detector;
}
