import { randomBytes, randomUUID } from 'node:crypto';
import { checkListSchema, hybridResultSchema } from '@spam-check/contracts';
import { startStack, type Stack } from '@spam-check/process-kit';
import {
  redisUrl,
  runAccount,
  runStackEnv,
  startRabbitCluster,
  type RabbitCluster,
} from '@spam-check/test-support';
import { obtainToken, postJson, request, type HttpResult } from '../integration/e2e/client';
import { removeRunKeys } from '../integration/e2e/redis-keys';
import { expectTextSkipped } from './stack-checks';

/**
 * The stack against a three-node RabbitMQ cluster (AMQP_URL lists the three nodes, quorum RPC queues): its
 * end-to-end checks, then a node stopped under a steady load of step-by-step hybrid checks and reports.
 */
const STEP_BY_STEP = { 'X-Internal-Step-By-Step': 'yes' };
/** Hybrid checks whose answers are known before the fault: each answer under load must be the same. */
const FIXED = [
  { email: 'kein gültiges@', title: 'Hallo', body: 'Schöner Beitrag.' },
  { email: 'anna.schmidt@example.org', title: 'Frage', body: 'Wann öffnet die Bibliothek?' },
] as const;
const LOAD = {
  checkers: 3,
  pauseMs: 50,
  reportPauseMs: 200,
  beforeMs: 3000,
  afterStopMs: 15_000,
  afterBackMs: 5000,
};
const REQUEST_TIMEOUT_MS = 30_000;

interface Outcome {
  kind: 'check' | 'report';
  /** When the request was sent and when its answer came. */
  at: number;
  end: number;
  status: number | 'hung';
  retryAfter: string | null;
  wrong: boolean;
}

/** What a step-by-step answer says, compared across answers of the same input. */
function verdictOf(body: unknown): string {
  const result = hybridResultSchema.parse(body);
  return JSON.stringify([
    result.mode,
    result.spam,
    result.skipped,
    result.email?.verdict,
    result.text?.verdict,
  ]);
}

describe('the stack on a three-node RabbitMQ cluster', () => {
  const run = randomUUID().slice(0, 8);
  const prefix = `scale-amqp-${run}:`;
  const account = runAccount(`scale-amqp-${run}`);
  let cluster: RabbitCluster | undefined;
  let stack: Stack;
  let token = '';
  // A start still running when the hook runs out of time is aborted, so that it stops what it started.
  const starting = new AbortController();
  let clusterStart: Promise<RabbitCluster> | undefined;

  beforeAll(async () => {
    const startedAt = Date.now();
    clusterStart = startRabbitCluster({ signal: starting.signal });
    const started = await clusterStart;
    cluster = started;
    const clusterMs = Date.now() - startedAt;
    stack = await startStack(
      {
        REDIS_URL: redisUrl(),
        AMQP_URL: started.nodes.map((node) => node.url).join(','),
        ...runStackEnv(prefix, {
          clients: [
            {
              id: account.client,
              secret: account.secret,
              grants: ['password'],
              scopes: ['spam:check'],
            },
          ],
          users: [{ username: account.username, password: account.password }],
        }),
        EMAIL_DNS_CHECK: 'off',
        OPENAI_API_KEY: undefined,
        // The load below is one client's: its rate limit is not what this test is about.
        RATE_LIMIT_REQUESTS: '1000000',
        AUTH_REDIS_TIMEOUT_MS: '5000',
        AUTH_TIMEOUT_MS: '10000',
      },
      { readyTimeoutMs: 150_000 },
    );
    console.log(
      `RabbitMQ cluster formed in ${clusterMs} ms, the stack ready ${Date.now() - startedAt - clusterMs} ms later`,
    );
    const issued = await obtainToken(stack.gateway, '/', account);
    expect(issued.status).toBe(200);
    token = issued.body.access_token;
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    starting.abort();
    await (cluster ?? (await clusterStart?.catch(() => undefined)))?.stop();
    await removeRunKeys(prefix);
  }, 180_000);

  const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpResult> =>
    postJson(`${stack.gateway}${path}`, token, body, headers);

  it('when AMQP_URL lists the three nodes, mail, text, step-by-step hybrid checks and a report work end to end', async () => {
    const mail = await post('/api/v1/spam/mail', { email: `e2e-${run}@example.org` });
    expect(mail.status).toBe(200);
    const text = await post('/api/v1/spam/text', { title: 'Frage', body: 'Wann öffnet die Bibliothek?' });
    expect(text.status).toBe(200);

    expectTextSkipped(await post('/api/v1/spam/hybrid-check', FIXED[0], STEP_BY_STEP));
    const both = await post('/api/v1/spam/hybrid-check', FIXED[1], STEP_BY_STEP);
    expect(both.status).toBe(200);
    const result = hybridResultSchema.parse(both.body);
    expect(result.mode).toBe('step_by_step');
    expect(result.skipped).toEqual([]);
    expect(result.text?.verdict).toBeDefined();

    const report = await post('/api/v1/spam/feedback', { check_id: result.id, label: 'spam' });
    expect(report.status).toBe(200);
    expect(await reportedLabels([result.id])).toEqual(new Map([[result.id, 'spam']]));

    const queues = await cluster!.queues(cluster!.nodes[0]!.name, 'name', 'type');
    const types = new Map(queues.map((q) => [q.name, q.type]));
    expect(types.get('spam-check.email-detector.check.quorum')).toBe('quorum');
    expect(types.get('spam-check.text-detector.check.quorum')).toBe('quorum');
  }, 120_000);

  it('when a RabbitMQ node stops under load, no answer is wrong, no accepted report is lost, and 503s stay inside the failover window', async () => {
    const baseline = await Promise.all(
      FIXED.map(async (input) => {
        const answer = await post('/api/v1/spam/hybrid-check', input, STEP_BY_STEP);
        expect(answer.status).toBe(200);
        return verdictOf(answer.body);
      }),
    );
    const pids = Object.values(stack.services).map((service) => service.child.pid);
    const outcomes: Outcome[] = [];
    const accepted = new Map<string, string>();
    let running = true;

    const timed = async (
      kind: Outcome['kind'],
      send: () => Promise<HttpResult>,
      wrong: (a: HttpResult) => boolean,
    ) => {
      const at = Date.now();
      const answer = await Promise.race([
        send(),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), REQUEST_TIMEOUT_MS).unref()),
      ]);
      const end = Date.now();
      const outcome: Outcome = answer
        ? {
            kind,
            at,
            end,
            status: answer.status,
            retryAfter: answer.headers.get('retry-after'),
            wrong: false,
          }
        : { kind, at, end, status: 'hung', retryAfter: null, wrong: false };
      if (answer?.status === 200) outcome.wrong = wrong(answer);
      outcomes.push(outcome);
      return answer;
    };
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const checker = async (worker: number) => {
      for (let i = worker; running; i += 1) {
        const index = i % FIXED.length;
        await timed(
          'check',
          () => post('/api/v1/spam/hybrid-check', FIXED[index], STEP_BY_STEP),
          (answer) => verdictOf(answer.body) !== baseline[index],
        );
        await pause(LOAD.pauseMs);
      }
    };
    const reporter = async () => {
      while (running) {
        const unique = randomBytes(6).toString('hex');
        const checked = await timed(
          'check',
          () =>
            post(
              '/api/v1/spam/hybrid-check',
              {
                email: `r-${unique}@reported-${run}.example`,
                title: unique,
                body: `Kaufen ${unique} jetzt ${unique}`,
              },
              STEP_BY_STEP,
            ),
          (answer) => hybridResultSchema.parse(answer.body).mode !== 'step_by_step',
        );
        if (checked?.status === 200) {
          const id = hybridResultSchema.parse(checked.body).id;
          const reported = await timed(
            'report',
            () => post('/api/v1/spam/feedback', { check_id: id, label: 'spam' }),
            () => false,
          );
          if (reported?.status === 200) accepted.set(id, 'spam');
        }
        await pause(LOAD.reportPauseMs);
      }
    };

    const node = cluster!.nodes[0]!.name;
    const load = Promise.all([...Array.from({ length: LOAD.checkers }, (_, i) => checker(i)), reporter()]);
    await pause(LOAD.beforeMs);
    const stoppedAt = Date.now();
    await cluster!.stopApp(node);
    const stopTookMs = Date.now() - stoppedAt;
    await pause(LOAD.afterStopMs);
    const restartedAt = Date.now();
    await cluster!.startApp(node);
    await pause(LOAD.afterBackMs);
    running = false;
    await load;

    const failed = outcomes.filter((outcome) => outcome.status !== 200);
    const firstFailure = Math.min(...failed.map((outcome) => outcome.at));
    const lastFailure = Math.max(stoppedAt, ...failed.map((outcome) => outcome.end));
    const windowMs = failed.length === 0 ? 0 : lastFailure - firstFailure;
    const wrong = outcomes.filter((outcome) => outcome.wrong).length;
    const labels = await reportedLabels([...accepted.keys()]);
    const lost = [...accepted].filter(([id, label]) => labels.get(id) !== label).length;
    const after = outcomes.filter((outcome) => outcome.at > lastFailure);
    console.log(
      [
        `RabbitMQ node ${node} stopped under load (stop_app), started again ${Math.round((restartedAt - stoppedAt) / 1000)} s later`,
        `requests: ${outcomes.length} (${outcomes.filter((o) => o.kind === 'report').length} reports), ` +
          `non-200: ${failed.length} (${[...new Set(failed.map((o) => o.status))].join(', ') || 'none'})`,
        `rabbitmqctl stop_app returned after ${stopTookMs} ms; first non-200 sent ${failed.length === 0 ? '-' : firstFailure - stoppedAt} ms after it was called`,
        `failover window (first non-200 sent to last non-200 answered): ${windowMs} ms`,
        `wrong answers: ${wrong}; accepted reports: ${accepted.size}, lost: ${lost}`,
        `answers after the window: ${after.length}, all 200: ${after.every((o) => o.status === 200)}; ` +
          `recovered before the node came back: ${lastFailure < restartedAt}`,
      ].join('\n'),
    );

    expect(wrong).toBe(0);
    expect(lost).toBe(0);
    expect(accepted.size).toBeGreaterThan(0);
    expect(failed.filter((outcome) => outcome.at < stoppedAt)).toEqual([]);
    // The two nodes left carry the stack: the window closes before the stopped node is back.
    expect(lastFailure).toBeLessThan(restartedAt);
    for (const outcome of failed)
      expect([outcome.status, outcome.retryAfter]).toEqual([503, expect.any(String)]);
    // Recovery without restarting a service: the same processes answer after the window, and the stack is ready.
    expect(after.filter((outcome) => outcome.kind === 'check').length).toBeGreaterThan(0);
    expect(Object.values(stack.services).map((service) => service.child.pid)).toEqual(pids);
    expect(Object.values(stack.services).every((service) => service.child.exitCode === null)).toBe(true);
    expect((await request(`${stack.services.gateway.managementUrl}/readyz`)).status).toBe(200);
  }, 180_000);

  /** The report label of each check id as the review list shows it (written just after the answer). */
  async function reportedLabels(ids: string[]): Promise<Map<string, string>> {
    const wanted = new Set(ids);
    const labels = new Map<string, string>();
    for (let attempt = 0; attempt < 40; attempt += 1) {
      let cursor: string | null = null;
      do {
        const query = `?reported=true&limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
        const page = await request(`${stack.gateway}/api/v1/checks${query}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(page.status).toBe(200);
        const parsed = checkListSchema.parse(page.body);
        for (const item of parsed.items)
          if (wanted.has(item.id) && item.report) labels.set(item.id, item.report.label);
        cursor = parsed.next_cursor;
      } while (cursor !== null);
      if (labels.size === wanted.size) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return labels;
  }
});
