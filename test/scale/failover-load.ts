import { randomBytes } from 'node:crypto';
import type { HttpResult } from '../integration/e2e/client';
import type { StackOnRedis } from './stack';

/** One answer of the load: when it came, to what, and what was wrong with it (if anything). */
interface Answer {
  at: number;
  /** How long the request took. */
  ms: number;
  what: string;
  status: number;
  retryAfter: string | null;
  wrong?: string;
}

interface AcceptedReport {
  at: number;
  title: string;
  body: string;
}

export interface FailoverFigures {
  answers: number;
  /** 200 answers whose content is not what the request must give. */
  wrong: Answer[];
  /** Anything but 200, 202 or a 503 with Retry-After (a 500, a 503 without it, a hang). */
  broken: Answer[];
  /** 503 answers: each must fall inside the failover window. */
  unavailable: Answer[];
  /** Failed answers before the kill: there must be none (the window opens with the kill). */
  failedBeforeKill: Answer[];
  /** Milliseconds from the kill to the last answer that was not a success; 0 when there was none. */
  windowMs: number;
  reportsBeforeKill: AcceptedReport[];
  reportsAfterKill: AcceptedReport[];
  /** Reports accepted before the kill whose lesson is gone after it, with how long before the kill each was. */
  lostBeforeKill: { msBeforeKill: number }[];
  lostAfterKill: AcceptedReport[];
}

const TIMEOUT_MS = 15_000;
const PAUSE_MS = 40;
/** The load runs on until every kind of request has succeeded for this long in a row after the kill. */
const RECOVERED_FOR_MS = 3000;

const words = (count: number) =>
  Array.from({ length: count }, () => randomBytes(4).toString('hex')).join(' ');

/**
 * A steady, bounded load on the stack (three clients in turn, each waiting for its answer): mail checks and
 * step-by-step hybrid checks of the documented fixtures, whose verdicts are fixed, and checks of new texts each
 * reported as spam by check id. After `warmupMs`, `kill()` takes a Redis master away; the load goes on until it
 * has recovered for RECOVERED_FOR_MS (or `maxMs` passed), then every report accepted is checked again.
 */
export async function loadThroughFailover(
  target: StackOnRedis,
  options: { warmupMs: number; maxMs: number; kill: () => void },
): Promise<FailoverFigures> {
  const answers: Answer[] = [];
  const reports: AcceptedReport[] = [];
  let stopping = false;
  const record = (what: string, result: HttpResult & { ms: number }, wrong?: string) => {
    answers.push({
      at: Date.now(),
      ms: result.ms,
      what,
      status: result.status,
      retryAfter: result.headers.get('retry-after'),
      ...(result.status === 200 && wrong !== undefined ? { wrong } : {}),
    });
    return result.status;
  };
  const send = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const started = Date.now();
    try {
      const result = await target.check(path, body, headers, AbortSignal.timeout(TIMEOUT_MS));
      return { ...result, ms: Date.now() - started };
    } catch (error) {
      return { status: 0, headers: new Headers(), body: String(error), ms: Date.now() - started };
    }
  };
  const loop = async (step: (round: number) => Promise<void>) => {
    for (let round = 0; !stopping; round++) {
      await step(round);
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  };
  const mails = loop(async (round) => {
    const expected = round % 2 === 0 ? 'spam' : 'ham';
    const answer = await send('/api/v1/spam/mail', { email: `${expected}@spam-check.test` });
    record(
      'mail',
      answer,
      answer.body?.verdict === expected ? undefined : `mail ${expected}: ${answer.body?.verdict}`,
    );
  });
  const hybrids = loop(async (round) => {
    const spam = round % 2 === 0;
    const answer = await send(
      '/api/v1/spam/hybrid-check',
      spam
        ? { email: 'spam@spam-check.test', title: 'Hallo', body: words(6) }
        : { email: 'ham@spam-check.test', title: 'Hallo', body: `spam-check-test-ham ${words(6)}` },
      { 'X-Internal-Step-By-Step': 'true' },
    );
    const body = answer.body;
    const right = spam
      ? body?.spam === true && body.text === null && body.skipped?.[0] === 'text'
      : body?.spam === false && body.text?.verdict === 'ham' && body.email?.verdict === 'ham';
    record('hybrid', answer, right ? undefined : `hybrid ${spam ? 'spam' : 'ham'}: ${JSON.stringify(body)}`);
  });
  const texts = loop(async () => {
    const text = { title: 'Angebot', body: words(12) };
    const checked = await send('/api/v1/spam/text', text);
    const status = record('text', checked, typeof checked.body?.id === 'string' ? undefined : 'no id');
    if (status !== 200) return;
    const reported = await send('/api/v1/spam/feedback', { check_id: checked.body.id, label: 'spam' });
    const accepted = reported.status === 200 || reported.status === 202;
    const applied = reported.body?.applied_to?.[0] === 'text';
    record('report', reported, applied ? undefined : `report: ${JSON.stringify(reported.body)}`);
    if (accepted && applied) reports.push({ at: Date.now(), ...text });
  });

  await new Promise((resolve) => setTimeout(resolve, options.warmupMs));
  const killedAt = Date.now();
  options.kill();
  const deadline = killedAt + options.maxMs;
  while (Date.now() < deadline && !recoveredSince(answers, killedAt)) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stopping = true;
  await Promise.all([mails, hybrids, texts]);
  return figures(target, answers, reports, killedAt);
}

const succeeded = (answer: Answer) => (answer.status === 200 || answer.status === 202) && !answer.wrong;

/** Every kind of request answered after the kill, and only successes for RECOVERED_FOR_MS. */
function recoveredSince(answers: Answer[], killedAt: number): boolean {
  const after = answers.filter((answer) => answer.at > killedAt);
  const lastFailure = Math.max(killedAt, ...after.filter((answer) => !succeeded(answer)).map((a) => a.at));
  const since = after.filter((answer) => answer.at > lastFailure);
  const kinds = new Set(since.map((answer) => answer.what));
  return kinds.size === 4 && Date.now() - lastFailure >= RECOVERED_FOR_MS;
}

async function figures(
  target: StackOnRedis,
  answers: Answer[],
  reports: AcceptedReport[],
  killedAt: number,
): Promise<FailoverFigures> {
  const failures = answers.filter((answer) => !succeeded(answer));
  const stillKnown = async (report: AcceptedReport) => {
    const again = await target.check('/api/v1/spam/text', { title: report.title, body: report.body });
    if (again.status !== 200) throw new Error(`checking a report again: ${again.status}`);
    return (again.body.reasons as { code: string }[]).some((reason) => reason.code === 'TEXT_REPORTED_SPAM');
  };
  const lost: AcceptedReport[] = [];
  for (const report of reports) if (!(await stillKnown(report))) lost.push(report);
  return {
    answers: answers.length,
    wrong: answers.filter((answer) => answer.wrong !== undefined),
    broken: failures.filter(
      (answer) => answer.wrong === undefined && !(answer.status === 503 && answer.retryAfter !== null),
    ),
    unavailable: answers.filter((answer) => answer.status === 503),
    failedBeforeKill: failures.filter((answer) => answer.at < killedAt),
    windowMs: failures.length === 0 ? 0 : Math.max(...failures.map((answer) => answer.at)) - killedAt,
    reportsBeforeKill: reports.filter((report) => report.at < killedAt),
    reportsAfterKill: reports.filter((report) => report.at >= killedAt),
    lostBeforeKill: lost
      .filter((report) => report.at < killedAt)
      .map((report) => ({ msBeforeKill: killedAt - report.at })),
    lostAfterKill: lost.filter((report) => report.at >= killedAt),
  };
}

/** The figures as one printed block, for the test's output. */
export function describeFigures(topology: string, result: FailoverFigures): string {
  const statuses = new Map<string, number>();
  for (const answer of [...result.unavailable, ...result.broken])
    statuses.set(
      `${answer.what} ${answer.status}`,
      (statuses.get(`${answer.what} ${answer.status}`) ?? 0) + 1,
    );
  return [
    `${topology}: a Redis master killed under load`,
    `  answers: ${result.answers}; wrong: ${result.wrong.length}; broken (not 200/202, not 503 with Retry-After): ${result.broken.length}`,
    `  failover window (kill to last failed answer): ${result.windowMs} ms; 503 answers: ${result.unavailable.length}`,
    `  slowest 503: ${Math.max(0, ...result.unavailable.map((answer) => answer.ms))} ms`,
    `  failures by request: ${[...statuses].map(([key, count]) => `${key} x${count}`).join(', ') || 'none'}`,
    `  reports accepted before the kill: ${result.reportsBeforeKill.length}, lost: ${result.lostBeforeKill.length}` +
      (result.lostBeforeKill.length > 0
        ? ` (accepted ${result.lostBeforeKill.map((lost) => lost.msBeforeKill).join(', ')} ms before it)`
        : ''),
    `  reports accepted after the kill: ${result.reportsAfterKill.length}, lost: ${result.lostAfterKill.length}`,
  ].join('\n');
}
