import { randomUUID } from 'node:crypto';
import {
  freePort,
  spawnService,
  startStack,
  stopService,
  waitForReady,
  type ServiceProcess,
  type Stack,
} from '@spam-check/process-kit';
import { runAccount, runClient, runUser, sharedStackEnv } from '@spam-check/test-support';
import { obtainToken, request } from './client';
import { removeRunState } from './redis-keys';
import { removeRunQueues } from '../../../services/gateway/test/integration/support/queues';

/**
 * The admin API's stack, started before the calling suite's tests and stopped after them: two gateway
 * processes, each with its own e-mail and text detector processes, all four detectors consuming the same RPC
 * queues; the real auth service, Redis and RabbitMQ. `state` holds the running stack during the tests.
 */
export function adminApiForSuite() {
  const run = randomUUID().slice(0, 8);
  const admin = runAccount(`admin-${run}`);
  const plainUser = { username: `user-${run}`, password: `pw-${randomUUID()}` };
  const other = { client: `other-${run}`, secret: `secret-${randomUUID()}` };
  const state = {} as {
    stack: Stack;
    second: { gateway: ServiceProcess; email: ServiceProcess; text: ServiceProcess };
    gateways: string[];
    adminToken: string;
  };

  beforeAll(async () => {
    const env = {
      LOG_LEVEL: 'info',
      ...sharedStackEnv(`admin-${run}:`, {
        clients: [
          runClient(admin, ['spam:admin']),
          { id: other.client, secret: other.secret, grants: ['password'], scopes: ['spam:check'] },
        ],
        users: [runUser(admin, ['spam:admin']), plainUser],
      }),
    };
    // Four detectors and two gateways start at once: on a loaded machine that takes more than the default.
    state.stack = await startStack(env, { readyTimeoutMs: 180_000 });
    const [email, text, gateway, management] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const emailProcess = spawnService('email-detector', env, email);
    const textProcess = spawnService('text-detector', env, text);
    const gatewayProcess = spawnService(
      'gateway',
      {
        ...env,
        GATEWAY_MANAGEMENT_PORT: String(management),
        AUTH_URL: state.stack.services.auth.url,
        EMAIL_DETECTOR_URL: emailProcess.url,
        TEXT_DETECTOR_URL: textProcess.url,
      },
      gateway,
    );
    state.second = { gateway: gatewayProcess, email: emailProcess, text: textProcess };
    await Promise.all(
      Object.values(state.second).map((service) => waitForReady(service, { timeoutMs: 180_000 })),
    );
    state.gateways = [state.stack.gateway, gatewayProcess.url];
    const issued = await obtainToken(state.stack.gateway, '/de/', admin);
    expect(issued.status).toBe(200);
    expect(issued.body.scope).toBe('spam:admin');
    state.adminToken = issued.body.access_token;
  }, 400_000);

  afterAll(async () => {
    if (state.second) await Promise.all(Object.values(state.second).map(stopService));
    await state.stack?.stop();
    await removeRunState(run, `admin-${run}:`);
    await removeRunQueues(`admin-${run}:`);
  });

  const adminCall = (
    method: string,
    path: string,
    body?: unknown,
    gateway = state.stack.gateway,
    token = state.adminToken,
  ) =>
    request(`${gateway}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });

  async function createClient(id: string, scopes = ['spam:check']): Promise<string> {
    const created = await adminCall('POST', '/deapi/v1/admin/clients', { id, scopes, grants: ['password'] });
    expect(created.status).toBe(201);
    return created.body.client_secret as string;
  }

  const checkToken = async (client: string, secret: string) => {
    const issued = await obtainToken(state.stack.gateway, '/', { client, secret, ...plainUser });
    expect(issued.status).toBe(200);
    return issued.body.access_token as string;
  };
  return { run, admin, plainUser, other, state, adminCall, createClient, checkToken };
}
