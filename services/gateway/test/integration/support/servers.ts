import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { MailResult, TextResult } from '@spam-check/contracts';
import {
  createLogger,
  createManagementApp,
  createMetrics,
  listenForManagement,
  serve,
  type Logger,
  type RunningService,
} from '@spam-check/service-kit';
import { freePort, spawnService, stopService, waitForReady } from '@spam-check/process-kit';
import { loadServiceConfig } from '../../../src/config';
import { compose } from '../../../src/compose';
import { writeBootstrapFile } from '@spam-check/test-support';

export const silentLogger = (): Logger => createLogger({ service: 'test', level: 'silent' });

export interface Running {
  url: string;
  stop: () => Promise<void>;
}

/** The gateway's public listener, and its management listener (`/readyz`, `/metrics`). */
export interface RunningGateway extends Running {
  managementUrl: string;
}

async function serveOnPort0(started: {
  app: Parameters<typeof serve>[0];
  readiness: Parameters<typeof serve>[1]['readiness'];
  closers?: Parameters<typeof serve>[1]['closers'];
}): Promise<Running & { service: RunningService }> {
  const service = await serve(started.app, {
    port: 0,
    host: '127.0.0.1',
    logger: silentLogger(),
    readiness: started.readiness,
    ...(started.closers ? { closers: started.closers } : {}),
  });
  return {
    url: `http://127.0.0.1:${service.port}`,
    service,
    stop: async () => {
      service.server.closeAllConnections();
      await service.stop();
    },
  };
}

const TEST_CLIENT = { id: 'test-client', secret: 'test-client-secret' };
export const OTHER_CLIENT = { id: 'other-client', secret: 'other-client-secret' };
export const NARROW_CLIENT = { id: 'narrow-client', secret: 'narrow-client-secret' };
const TEST_USER = { username: 'alice', password: 'alice-password' };

/**
 * The real auth service (services/auth) as its own process on a free port: a client with `spam:check`, one
 * without it, and a user. Embedded (memory store) unless REDIS_URL is given.
 */
export async function startAuth(env: Record<string, string> = {}): Promise<Running> {
  const bootstrap = writeBootstrapFile({
    clients: [
      { ...TEST_CLIENT, grants: ['password', 'refresh_token'], scopes: ['spam:check'] },
      { ...OTHER_CLIENT, grants: ['password', 'refresh_token'], scopes: ['spam:check'] },
      { ...NARROW_CLIENT, grants: ['password', 'refresh_token'], scopes: ['reports:read'] },
    ],
    users: [TEST_USER],
  });
  const auth = spawnService(
    'auth',
    {
      LOG_LEVEL: 'warn',
      AUTH_BOOTSTRAP_FILE: bootstrap,
      AUTH_SCRYPT_COST: '1024',
      REDIS_URL: undefined,
      ...env,
    },
    await freePort(),
  );
  await waitForReady(auth);
  return { url: auth.url, stop: () => stopService(auth) };
}

/**
 * The gateway as `main.ts` builds it (compose), from the given environment only: its public listener
 * and its management listener, both on port 0.
 */
export async function startGatewayForTest(env: Record<string, string | undefined>): Promise<RunningGateway> {
  // No background probes of the detectors unless a test asks: they would show up among the requests the
  // scripted detectors record (the probing is tested end to end, test/integration/e2e/detector-down.test.ts).
  const config = loadServiceConfig({
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    DETECTOR_PROBE_INTERVAL_MS: '0',
    ...env,
  });
  const metrics = createMetrics('gateway');
  const started = await compose({ config, logger: silentLogger(), metrics });
  const management = await listenForManagement(
    createManagementApp({ metrics, readiness: started.readiness }),
    { port: 0, host: '127.0.0.1' },
  );
  const running = await serveOnPort0(started);
  return {
    ...running,
    managementUrl: `http://127.0.0.1:${management.port}`,
    stop: async () => {
      await running.stop();
      await management.close();
    },
  };
}

export async function obtainToken(
  baseUrl: string,
  client: { id: string; secret: string } = TEST_CLIENT,
  path = '/oauth/token',
): Promise<string> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', ...TEST_USER }).toString(),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!response.ok || !body.access_token)
    throw new Error(`no token: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Behaviour = (req: RecordedRequest, res: http.ServerResponse) => void | Promise<void>;

/** A real HTTP server with a scripted behaviour, recording every request it gets (a detector, a bad auth). */
export async function startScriptedServer(
  behaviour: Behaviour,
): Promise<Running & { requests: RecordedRequest[]; server: http.Server }> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      requests.push(recorded);
      void Promise.resolve(behaviour(recorded, res)).catch(() => res.destroy());
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    server,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export const sendJson = (
  res: http.ServerResponse,
  status: number,
  body: unknown,
  type = 'application/json',
) => {
  res.writeHead(status, { 'Content-Type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

/** The JSON body of a response, untyped: tests assert on its shape. */

export const json = (response: Response): Promise<any> => response.json();

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A mail result of the contract's shape, as the e-mail detector answers; `spam` picks the verdict. */
export function mailResult(spam: boolean, requestId = 'r'): MailResult {
  return {
    id: randomUUID(),
    spam,
    verdict: spam ? 'spam' : 'ham',
    score: spam ? 0.95 : 0.05,
    reasons: spam ? [{ code: 'EMAIL_DISPOSABLE_DOMAIN', message: 'disposable', weight: 0.9 }] : [],
    request_id: requestId,
    duration_ms: 1,
    email: {
      input: 'a@b.example',
      normalized: 'a@b.example',
      domain: 'b.example',
      ascii_domain: 'b.example',
    },
    valid: true,
    suggestion: null,
    checks: {
      syntax: { status: 'pass' },
      disposable: { status: spam ? 'fail' : 'pass' },
      role_account: { status: 'pass' },
      free_provider: { status: 'pass' },
      dns: { status: 'skipped' },
    },
  };
}

/** A text result of the contract's shape, as the text detector answers. */
export function textResult(verdict: 'ham' | 'suspicious' | 'spam', requestId = 'r'): TextResult {
  const score = { ham: 0.1, suspicious: 0.55, spam: 0.9 }[verdict];
  return {
    id: randomUUID(),
    spam: verdict === 'spam',
    verdict,
    score,
    reasons: [],
    request_id: requestId,
    duration_ms: 1,
    language: 'en',
    engine: 'rules',
    degraded: false,
    signals: { links: 0, link_density: 0, shorteners: 0, uppercase_ratio: 0, length: 10 },
  };
}
