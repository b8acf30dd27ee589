import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clientSettingsSchema,
  feedbackResultSchema,
  hybridResultSchema,
  mailBatchResultSchema,
  mailResultSchema,
  textBatchResultSchema,
  textResultSchema,
} from '@spam-check/contracts';
import { parseEnvFile } from '../integration/deploy-files/files';
import { composeProject, eventually, inspect, processIdentity, sh, usage, type Usage } from './docker';
import { brokerProbe } from './broker';

// `pnpm test:deploy` (scripts/deploy/test.sh): docker-compose.yml as an operator runs it, from
// deploy/compose.env.example filled in with secrets of its own, every detector scaled to two replicas, and
// talked to only through the published gateway, Docker and the containers' own tools.
const project = 'spam-check-deploy';
const secret = () => randomBytes(24).toString('hex');
const SERVICES = ['gateway', 'auth', 'email-detector', 'text-detector'];
const DETECTORS = ['email-detector', 'text-detector'];
const REPLICAS = 2;
const shop = { client: 'shop', secret: secret(), username: 'shop-backend', password: secret() };
const operator = { client: 'operator', secret: secret(), username: 'operator', password: secret() };

const work = mkdtempSync(join(tmpdir(), 'compose-deploy-'));
const envFile = join(work, '.env');
const { compose, containers, exec } = composeProject(project, envFile);
const { queueConsumers, bytesSentTo } = brokerProbe(exec);
let gateway = '';
let idle: Usage[] = [];

/** deploy/compose.env.example with every empty value (each a secret) given one, and a bootstrap file. */
function writeOperatorFiles(): void {
  const bootstrap = join(work, 'bootstrap.json');
  writeFileSync(
    bootstrap,
    JSON.stringify({
      clients: [
        {
          id: shop.client,
          secret: shop.secret,
          grants: ['password', 'refresh_token'],
          scopes: ['spam:check'],
        },
        { id: operator.client, secret: operator.secret, grants: ['password'], scopes: ['spam:admin'] },
      ],
      users: [
        { username: shop.username, password: shop.password },
        { username: operator.username, password: operator.password, scopes: ['spam:admin'] },
      ],
    }),
  );
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parseEnvFile('deploy/compose.env.example')))
    env[key] = value === '' ? secret() : value;
  Object.assign(env, {
    AUTH_BOOTSTRAP_SOURCE: bootstrap,
    GATEWAY_PUBLISH: '127.0.0.1:',
    // These machines are shared (2 cores, load 15 and more while others build): a token's two scrypt
    // hashes took auth over the default 2 s, and the gateway answered 503 (docs/operations.md).
    AUTH_TIMEOUT_MS: '10000',
    // They resolve no outside names: every domain would be NXDOMAIN, so every address spam, and a
    // step-by-step check would never reach the text detector.
    EMAIL_DNS_CHECK: 'false',
  });
  // The base images scripts/deploy/images.sh chose (official, or stand-ins built from Debian's packages).
  for (const key of ['NODE_IMAGE', 'REDIS_IMAGE', 'RABBITMQ_IMAGE'])
    if (process.env[key]) env[key] = process.env[key]!;
  writeFileSync(
    envFile,
    Object.entries(env)
      .map(([key, value]) => `${key}=${value}\n`)
      .join(''),
  );
}

async function call(method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${gateway}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as unknown };
}

async function token(prefix: string, who: typeof shop) {
  const response = await fetch(`${gateway}/${prefix}oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${who.client}:${who.secret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'password', username: who.username, password: who.password }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { access_token: string; refresh_token?: string; token_type: string };
}

async function refresh(refreshToken: string) {
  const response = await fetch(`${gateway}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: shop.client,
      client_secret: shop.secret,
    }),
  });
  return response.status;
}

/** A hybrid check that must have gone step by step (the client's setting): e-mail first, then the text. */
async function stepByStep(accessToken: string, n = 0) {
  const response = await call('POST', '/api/v1/spam/hybrid-check', accessToken, {
    email: `anna.schmidt+${n}@example.org`,
    title: 'Frage',
    body: `Wann öffnet die Bibliothek am Samstag? (${n})`,
  });
  if (response.status !== 200)
    throw new Error(`hybrid check: ${response.status} ${JSON.stringify(response.body)}`);
  const result = hybridResultSchema.parse(response.body);
  expect(result.mode).toBe('step_by_step');
  expect(result.text?.verdict).toBeDefined();
  return result;
}

async function running(service?: string) {
  return Promise.all((await containers(service)).map(inspect));
}

beforeAll(async () => {
  writeOperatorFiles();
  await compose('down', '-v', '--remove-orphans');
  // scripts/deploy/test.sh has built the images (`--build` would build them again, unseen).
  const scale = DETECTORS.flatMap((name) => ['--scale', `${name}=${REPLICAS}`]);
  await compose('up', '-d', '--wait', ...scale).catch(async (error: unknown) => {
    console.error(await compose('logs', '--no-color', '--tail', '40').catch(String));
    throw error;
  });
  const published = (await compose('port', 'gateway', '8080')).trim();
  gateway = `http://${published}`;
  // Every container at rest, before any request: the floor of the Kubernetes requests (docs/operations.md).
  idle = await usage(await containers());
}, 600_000);

afterAll(async () => {
  await compose('down', '-v', '--remove-orphans').catch((error: unknown) => console.error(error));
  rmSync(work, { recursive: true, force: true });
}, 120_000);

describe('docker compose up, scaled, through the published gateway', () => {
  let shopToken = '';
  let refreshToken = '';
  let unusedToken = '';
  let reportedAddress = '';

  it('starts every container healthy, the detectors without a connection refused by RabbitMQ', async () => {
    const states = await running();
    const byService = (name: string) => states.filter((state) => state.service === name).length;
    expect(
      Object.fromEntries(['redis', 'rabbitmq', ...SERVICES].map((name) => [name, byService(name)])),
    ).toEqual({
      redis: 1,
      rabbitmq: 1,
      gateway: 1,
      auth: 1,
      'email-detector': REPLICAS,
      'text-detector': REPLICAS,
    });
    for (const id of await containers()) {
      const health = (await sh('docker', ['inspect', '-f', '{{.State.Health.Status}}', id])).trim();
      expect(health).toBe('healthy');
    }
    expect(await compose('logs', '--no-color', ...SERVICES)).not.toMatch(/ECONNREFUSED/);
  });

  it('issues tokens at /deoauth/token and /froauth/token', async () => {
    const de = await token('de', shop);
    const fr = await token('fr', shop);
    expect([de.token_type, fr.token_type]).toEqual(['Bearer', 'Bearer']);
    shopToken = de.access_token;
    refreshToken = fr.refresh_token!;
    unusedToken = (await token('', shop)).access_token;
  });

  it('checks mail and text, singly and in batches, and learns from feedback', async () => {
    reportedAddress = `offers-${secret().slice(0, 8)}@example.org`;
    const mail = await call('POST', '/deapi/v1/spam/mail', shopToken, { email: reportedAddress });
    expect(mail.status).toBe(200);
    const checked = mailResultSchema.parse(mail.body);
    const text = await call('POST', '/frapi/v1/spam/text', shopToken, {
      title: 'Bonjour',
      body: 'Merci pour votre aide.',
    });
    expect(text.status).toBe(200);
    textResultSchema.parse(text.body);
    const mails = await call('POST', '/api/v1/spam/mail/batch', shopToken, {
      emails: ['a@example.org', 'b@example.org'],
    });
    expect(mailBatchResultSchema.parse(mails.body).results).toHaveLength(2);
    const texts = await call('POST', '/api/v1/spam/text/batch', shopToken, {
      items: [
        { title: 'Hi', body: 'See you tomorrow.' },
        { title: 'WIN', body: 'Claim your free prize now!!!' },
      ],
    });
    expect(textBatchResultSchema.parse(texts.body).results).toHaveLength(2);
    const feedback = await call('POST', '/api/v1/spam/feedback', shopToken, {
      check_id: checked.id,
      label: 'spam',
    });
    expect(feedback.status).toBe(200);
    expect(feedbackResultSchema.parse(feedback.body).applied_to).toEqual(['email']);
    await expectReported(shopToken);
  });

  async function expectReported(accessToken: string) {
    const again = await call('POST', '/api/v1/spam/mail', accessToken, { email: reportedAddress });
    expect(again.status).toBe(200);
    expect(mailResultSchema.parse(again.body).reasons.map((reason) => reason.code)).toContain(
      'EMAIL_REPORTED_SPAM',
    );
  }

  it('takes client settings through the admin API: hybrid checks then go step by step over RabbitMQ', async () => {
    const admin = (await token('', operator)).access_token;
    const path = `/api/v1/admin/clients/${shop.client}/settings`;
    const put = await call('PUT', path, admin, { hybrid: { step_by_step: true } });
    expect(put.status).toBe(200);
    const stored = await call('GET', path, admin);
    expect(clientSettingsSchema.parse(stored.body)).toMatchObject({ hybrid: { step_by_step: true } });
    await stepByStep(shopToken);
    const consumers = await queueConsumers();
    expect(Object.keys(consumers)).toHaveLength(2);
    for (const count of Object.values(consumers)) expect(count).toBe(REPLICAS);
  });

  it('spreads the RPC work over both replicas of each detector', async () => {
    const replicas = Object.fromEntries(
      await Promise.all(DETECTORS.map(async (detector) => [detector, await running(detector)] as const)),
    );
    const sentTo = (detector: string, before: Map<string, number>, after: Map<string, number>) =>
      replicas[detector]!.map((replica) => (after.get(replica.ip) ?? 0) - (before.get(replica.ip) ?? 0));
    // One check: what one delivery of each detector's request weighs, over all its replicas (a heartbeat,
    // 8 bytes a minute, is noise next to it).
    const start = await bytesSentTo();
    await stepByStep(shopToken, 50);
    const one = await bytesSentTo();
    const delivery = Object.fromEntries(
      DETECTORS.map((detector) => [detector, sentTo(detector, start, one).reduce((a, b) => a + b, 0)]),
    );
    for (const detector of DETECTORS) expect([detector, delivery[detector]! > 100]).toEqual([detector, true]);
    for (let round = 0; round < 4; round += 1)
      await Promise.all([0, 1, 2].map((i) => stepByStep(shopToken, round * 3 + i)));
    const after = await bytesSentTo();
    for (const detector of DETECTORS) {
      expect(replicas[detector]).toHaveLength(REPLICAS);
      // Each replica got at least one delivery's worth of the twelve checks.
      const received = sentTo(detector, one, after);
      expect(
        replicas[detector]!.map((replica, i) => [replica.name, received[i]! >= delivery[detector]!]),
      ).toEqual(replicas[detector]!.map((replica) => [replica.name, true]));
    }
  });

  it('measures memory and CPU per container, idle and under traffic (the figures behind k8s/ resources)', async () => {
    const ids = await containers();
    const peak = new Map<string, Usage>();
    let stop = false;
    // Two clients' worth of mixed work in parallel: a login (scrypt), a mail and a text check, a hybrid check
    // over RabbitMQ, and two small batches; about 290 requests in all, under the client's rate limit.
    const worker = async (w: number) => {
      for (let i = 0; i < 12 && !stop; i += 1) {
        const n = 1000 + w * 100 + i;
        const { access_token: accessToken } = await token('', shop);
        const replies = await Promise.all([
          call('POST', '/api/v1/spam/mail', accessToken, { email: `load-${n}@example.org` }),
          call('POST', '/api/v1/spam/text', accessToken, {
            title: `Angebot ${n}`,
            body: 'Jetzt gratis testen!!!',
          }),
          call('POST', '/api/v1/spam/mail/batch', accessToken, {
            emails: [0, 1, 2, 3, 4].map((k) => `batch-${n}-${k}@example.org`),
          }),
          call('POST', '/api/v1/spam/text/batch', accessToken, {
            items: [0, 1, 2].map((k) => ({ title: `Hallo ${k}`, body: `Bis morgen, ${n}.` })),
          }),
        ]);
        expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
        await stepByStep(accessToken, n);
      }
    };
    const traffic = Promise.all([worker(0), worker(1)]).finally(() => {
      stop = true;
    });
    let samples = 0;
    while (!stop || samples === 0) {
      for (const sample of await usage(ids)) {
        const seen = peak.get(sample.name);
        peak.set(sample.name, {
          name: sample.name,
          memoryMiB: Math.max(sample.memoryMiB, seen?.memoryMiB ?? 0),
          cpuPercent: Math.max(sample.cpuPercent, seen?.cpuPercent ?? 0),
        });
      }
      samples += 1;
    }
    await traffic;
    const rows = idle.map((rest) => {
      const busy = peak.get(rest.name);
      return [rest.name, rest.memoryMiB, busy?.memoryMiB, rest.cpuPercent, busy?.cpuPercent]
        .map((cell) => (typeof cell === 'number' ? cell.toFixed(1) : String(cell)))
        .join('\t');
    });
    console.log(
      `docker stats, ${samples} samples under traffic (CPU: 100 = one core)\n` +
        `container\tidle MiB\tpeak MiB\tidle CPU %\tpeak CPU %\n${rows.join('\n')}`,
    );
    expect([...peak.keys()].sort()).toEqual(idle.map((rest) => rest.name).sort());
  });

  it('keeps tokens and feedback when Redis is restarted, and when it is recreated', async () => {
    const [original] = await containers('redis');
    await compose('restart', 'redis');
    await eventually(() => expectReported(shopToken), 60_000);
    await compose('up', '-d', '--wait', '--force-recreate', '--no-deps', 'redis');
    expect(await containers('redis')).not.toEqual([original]);
    await eventually(() => expectReported(unusedToken), 60_000);
    // The refresh token lives only in Redis (auth keeps no copy).
    expect(await refresh(refreshToken)).toBe(200);
  });

  it('works step by step again after RabbitMQ is recreated, on the same node data', async () => {
    await compose('up', '-d', '--wait', '--force-recreate', '--no-deps', 'rabbitmq');
    await eventually(() => stepByStep(shopToken, 100), 90_000);
    // Node directories only (`ls -p` marks them with /), not the node's feature-flag file or plugin folder.
    const nodes = (await exec('rabbitmq', 'ls', '-p', '/var/lib/rabbitmq/mnesia'))
      .split('\n')
      .filter((f) => /^rabbit@[^./]+\/$/.test(f) && !f.endsWith('-plugins-expand/'))
      .map((f) => f.slice(0, -1));
    expect(nodes).toEqual(['rabbit@rabbitmq']);
    await eventually(async () => {
      for (const count of Object.values(await queueConsumers())) expect(count).toBe(REPLICAS);
    }, 30_000);
  });

  it('runs every container read-only, as non-root, without capabilities (Redis and RabbitMQ included)', async () => {
    const states = await running();
    expect(states).toHaveLength(2 + SERVICES.length + DETECTORS.length * (REPLICAS - 1));
    for (const state of states) {
      expect([state.name, state.readOnly, state.capDrop]).toEqual([state.name, true, ['ALL']]);
      const pids = (await sh('docker', ['top', state.name, '-o', 'pid']))
        .split('\n')
        .slice(1)
        .filter(Boolean);
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) {
        const { uids, capEff } = processIdentity(Number(pid));
        expect([state.name, pid, uids.every((uid) => uid > 0), capEff]).toEqual([state.name, pid, true, 0n]);
      }
    }
  });

  it('ships images without sources, benches, tests, tsconfig files or the lockfile', async () => {
    const list =
      "const fs=require('fs');const d=['/app',...fs.readdirSync('/app/node_modules/@spam-check').map(p=>'/app/node_modules/@spam-check/'+p)];console.log(d.flatMap(x=>fs.readdirSync(x)).join('\\n'))";
    for (const service of SERVICES) {
      const tag = parseEnvFile('deploy/compose.env.example').TAG ?? 'local';
      const entries = (
        await sh('docker', ['run', '--rm', `spam-check/${service}:${tag}`, 'node', '-e', list])
      ).split('\n');
      expect(entries).toContain('dist');
      expect(
        entries.filter((entry) => /^(src|bench|test|scripts|tsconfig.*\.json|pnpm-lock\.yaml)$/.test(entry)),
      ).toEqual([]);
    }
  });

  it('stops with `docker compose stop`: every container exits 0 within its grace period', async () => {
    await compose('stop');
    const states = await running();
    expect(states.map((state) => [state.name, state.running, state.exitCode])).toEqual(
      states.map((state) => [state.name, false, 0]),
    );
  });
});
