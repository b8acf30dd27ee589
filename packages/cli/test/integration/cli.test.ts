import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hybridResultSchema, mailResultSchema, textResultSchema } from '@spam-check/contracts';
import { REPO_ROOT, startStack, type Stack, SELF_CONTAINED_ENV, waitForExit } from '@spam-check/process-kit';
import { parse } from 'csv-parse/sync';

const ROWS = 10_000;
const TOO_LONG_EVERY = 1000;

/** The root package's `spam-check` script, as `pnpm spam-check` runs it (without pnpm's own output). */
function command(): string[] {
  const scripts = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).scripts;
  const [node, ...args] = (scripts['spam-check'] as string).split(' ');
  expect(node).toBe('node');
  return args;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CPU time one run of the command may use before it counts as hung (`waitForExit`). */
const RUN_CPU_MS = 60_000;

// Each test starts the command, a process from the sources, several times: its runs are bounded by their own
// CPU time, and the test's clock only has to outlast a loaded machine.
jest.setTimeout(300_000);

// The real `spam-check` command, as a process, against the real stack (four processes, DNS off).
describe('the spam-check command against the real stack', () => {
  let stack: Stack;
  let home: string;
  let work: string;

  const run = (args: string[], stdin?: string): Promise<Run> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [...command(), ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, HOME: home, XDG_CONFIG_HOME: '', SPAM_CHECK_CONFIG: '' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      void waitForExit(child, RUN_CPU_MS);
      child.stdin.end(stdin ?? '');
    });
  /** `login` as the demo client against the stack, with `how` (a user or the client credentials). */
  const loginAs = (how: string[], stdin?: string) =>
    run(
      [
        'login',
        '--url',
        stack.gateway,
        '--client-id',
        'demo-client',
        '--client-secret',
        'demo-secret',
        ...how,
      ],
      stdin,
    );
  const login = (password = 'demo-password') =>
    loginAs(['--username', 'demo', '--password-stdin'], `${password}\n`);

  beforeAll(async () => {
    stack = await startStack(
      {
        ...SELF_CONTAINED_ENV,
        // Lower than the file's rows, so that the file run is rate limited on the way and has to wait.
        RATE_LIMIT_REQUESTS: '6000',
        RATE_LIMIT_WINDOW_SECONDS: '2',
      },
      { readyTimeoutMs: 60_000 },
    );
    home = mkdtempSync(join(tmpdir(), 'cli-home-'));
    work = mkdtempSync(join(tmpdir(), 'cli-work-'));
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('when nobody has signed in, a check exits 77 and says to log in', async () => {
    const result = await run(['mail', 'anna@example.org']);
    expect(result.code).toBe(77);
    expect(result.stderr).toMatch(/spam-check login/);
  });

  it('when the password is wrong, login exits 77 and keeps nothing', async () => {
    const result = await login('wrong');
    expect(result.code).toBe(77);
    expect(result.stderr).toMatch(/invalid_grant/);
    expect(() => statSync(join(home, '.config', 'spam-check', 'config.json'))).toThrow();
  });

  it('when the user logs in, the tokens are kept in a 0600 file in the home directory, without the password', async () => {
    const result = await login();
    expect(result.code).toBe(0);
    const file = join(home, '.config', 'spam-check', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('demo-password');
    expect(JSON.parse(text)).toMatchObject({
      url: stack.gateway,
      client_id: 'demo-client',
      tokens: { access_token: expect.any(String), refresh_token: expect.any(String) },
    });
  });

  it('when one address is checked, the verdict decides the exit code: 1 for spam, 0 otherwise', async () => {
    const spam = await run(['mail', 'info@mailinator.com', '--lang', 'de']);
    expect(spam.code).toBe(1);
    expect(spam.stdout).toMatch(/^spam \(score/);
    expect(spam.stdout).toMatch(/EMAIL_DISPOSABLE_DOMAIN/);
    const ham = await run(['mail', 'anna.schmidt@example.org', '--json']);
    expect(ham.code).toBe(0);
    expect(mailResultSchema.parse(JSON.parse(ham.stdout)).verdict).not.toBe('spam');
  });

  it('when a text and a hybrid check are run, they read the body from a file and print the results', async () => {
    const body = join(work, 'body.txt');
    writeFileSync(body, 'Wann öffnet die Bibliothek am Samstag?');
    const text = await run(['text', '--title', 'Frage', '--body-file', body, '--json']);
    expect(text.code).toBe(0);
    expect(textResultSchema.parse(JSON.parse(text.stdout)).verdict).toBe('ham');
    const comment = await run([
      'text',
      '--title',
      'Frage',
      '--body-file',
      body,
      '--form-type',
      'comment',
      '--author-name',
      'www.billig-kredit.example',
      '--json',
    ]);
    const judged = textResultSchema.parse(JSON.parse(comment.stdout));
    expect(judged.signals.form_type).toBe('comment');
    expect(judged.reasons.map((reason) => reason.code)).toContain('FORM_AUTHOR_NAME_LINK');
    const mail = await run([
      'mail',
      'anna.schmidt@example.org',
      '--author-name',
      'https://x.example',
      '--json',
    ]);
    expect(mailResultSchema.parse(JSON.parse(mail.stdout)).reasons.map((r) => r.code)).toContain(
      'FORM_AUTHOR_NAME_LINK',
    );
    expect((await run(['text', '--title', 'x', '--body-file', body, '--form-type', 'guestbook'])).code).toBe(
      64,
    );
    const hybrid = await run([
      'hybrid',
      '--email',
      'info@mailinator.com',
      '--title',
      'Frage',
      '--body-file',
      body,
      '--step-by-step',
      '--json',
    ]);
    expect(hybrid.code).toBe(1);
    expect(hybridResultSchema.parse(JSON.parse(hybrid.stdout))).toMatchObject({
      mode: 'step_by_step',
      skipped: ['text'],
    });
  });

  it('when a file of 10,000 rows is checked, every row is written in order, and a second run resumes after the rows done', async () => {
    const input = join(work, 'signups.csv');
    const rows = Array.from({ length: ROWS }, (_, i) => {
      const email =
        i % TOO_LONG_EVERY === 999
          ? `${'x'.repeat(1100)}@example.org`
          : i % 7 === 0
            ? `user${i}@mailinator.com`
            : `user.${i}@example${i % 13}.org`;
      return [String(i + 1), `Doe, "Jane" ${i}`, email];
    });
    writeFileSync(
      input,
      [['id', 'name', 'Email'], ...rows]
        .map((row) => row.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(','))
        .join('\r\n'),
    );
    const output = join(work, 'results.csv');

    const first = await run(['mail', '--input', input, '--column', 'email', '--output', output, '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(2); // the over-long addresses could not be checked
    const summary = JSON.parse(first.stdout);
    const failed = ROWS / TOO_LONG_EVERY;
    expect(summary).toMatchObject({ rows: ROWS, skipped: 0, checked: ROWS, failed });
    expect(summary.ham + summary.suspicious + summary.spam).toBe(ROWS - failed);
    expect(summary.spam).toBeGreaterThanOrEqual(Math.floor(ROWS / 7));

    const complete = readFileSync(output, 'utf8');
    const written = parse(complete);
    expect(written[0]).toEqual([
      'id',
      'name',
      'Email',
      'verdict',
      'score',
      'valid',
      'suggestion',
      'reasons',
      'error',
    ]);
    expect(written.slice(1).map((row) => row.slice(0, 3))).toEqual(rows);
    written.slice(1).forEach((row, i) => {
      if (i % TOO_LONG_EVERY === 999) expect(row.slice(3)).toEqual(['', '', '', '', '', 'VALIDATION_FAILED']);
      else expect(['ham', 'suspicious', 'spam']).toContain(row[3]);
      if (i % 7 === 0 && i % TOO_LONG_EVERY !== 999) expect(row[7]).toContain('EMAIL_DISPOSABLE_DOMAIN');
    });

    // As if the first run had stopped after 3,500 rows, in the middle of writing the next one.
    const lines = complete.split('\n');
    writeFileSync(output, `${lines.slice(0, 3501).join('\n')}\n"3502","Doe, ""Ja`);
    const resumed = await run(['mail', '--input', input, '--column', 'email', '--output', output, '--json']);
    expect(resumed.code).toBe(2);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ rows: ROWS, skipped: 3500, checked: ROWS - 3500 });
    expect(readFileSync(output, 'utf8')).toBe(complete);

    const again = await run(['mail', '--input', input, '--column', 'email', '--output', output]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/already done \(skipped\)\s+\|\s+10000 \|/);
    expect(again.stdout).toMatch(/checked now\s+\|\s+0 \|/);
  }, 180_000);

  it('when attached to a terminal, a file run shows a progress bar with the rate', async () => {
    const input = join(work, 'terminal.csv');
    writeFileSync(
      input,
      ['email', ...Array.from({ length: 3000 }, (_, i) => `tty${i}@example.org`)].join('\n'),
    );
    const args = [...command(), 'mail', '--input', input, '--output', join(work, 'terminal-results.csv')];
    // script(1) runs the command on a pseudo-terminal, as a user's shell would.
    const line = [process.execPath, ...args, '--batch-size', '500', '--concurrency', '1'].join(' ');
    const result = await new Promise<Run>((resolve, reject) => {
      const child = spawn('script', ['-qec', line, '/dev/null'], {
        cwd: REPO_ROOT,
        env: { ...process.env, HOME: home, XDG_CONFIG_HOME: '', SPAM_CHECK_CONFIG: '' },
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr: '' }));
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/checking .* 100% \| 3000\/3000 rows \| \d+ rows\/s/);
    expect(result.stdout).toMatch(/checked now\s+\|\s+3000 \|/);
  }, 60_000);

  it('when the column is missing or the output belongs to another input, it exits 65 and writes nothing', async () => {
    const input = join(work, 'other.csv');
    writeFileSync(input, 'id,address\n1,a@example.org\n');
    const missing = await run(['mail', '--input', input, '--output', join(work, 'none.csv')]);
    expect(missing.code).toBe(65);
    expect(missing.stderr).toMatch(/no column "email" \(columns: id, address\)/);
    const foreign = join(work, 'foreign.csv');
    writeFileSync(foreign, 'id,name,verdict\n1,x,ham\n');
    const mixed = await run(['mail', '--input', input, '--column', 'address', '--output', foreign]);
    expect(mixed.code).toBe(65);
    expect(readFileSync(foreign, 'utf8')).toBe('id,name,verdict\n1,x,ham\n');
  });

  it('when the arguments are wrong, it exits 64', async () => {
    expect((await run(['mail'])).code).toBe(64);
    expect((await run(['mail', '--input', 'x.csv'])).code).toBe(64);
    expect((await run(['mail', 'a@example.org', '--batch-size', '5000'])).code).toBe(64);
  });

  it('when checks are listed and corrected from a file, the list is newest first and each report is applied or named', async () => {
    const texts = await run(['checks', '--kind', 'text', '--since', '24h', '--csv']);
    expect(texts.code).toBe(0);
    const rows = parse<Record<string, string>>(texts.stdout, { columns: true });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.kind === 'text' && row.id !== '')).toBe(true);
    const recent = await run(['checks', '--max', '3', '--json']);
    expect(recent.code).toBe(0);
    const items = recent.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; created_at: string });
    expect(items).toHaveLength(3);
    expect(items.map((item) => item.created_at)).toEqual(
      items
        .map((item) => item.created_at)
        .sort()
        .reverse(),
    );

    const file = join(work, 'reports.csv');
    writeFileSync(file, `check_id,label\n${items[0]!.id},spam\n${items[1]!.id},ham\nno-such-check,spam\n`);
    const sent = await run(['feedback', '--file', file]);
    expect(sent.code).toBe(2);
    expect(sent.stderr).toMatch(/reports: 3\/3/);
    expect(sent.stdout).toMatch(/row 4 \(no-such-check\): CHECK_NOT_FOUND/);
    expect(sent.stdout).toMatch(/applied 2 of 3/);
    const reported = await run(['checks', '--reported', 'true', '--json']);
    const labels = reported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; report: { label: string } });
    expect(labels.map((item) => [item.id, item.report.label])).toEqual([
      [items[0]!.id, 'spam'],
      [items[1]!.id, 'ham'],
    ]);

    expect((await run(['checks', '--since', 'yesterday'])).code).toBe(64);
    writeFileSync(file, 'check_id,label\nabc,maybe\n');
    const bad = await run(['feedback', '--file', file]);
    expect([bad.code, bad.stderr]).toEqual([65, expect.stringMatching(/row 2: expected the columns/)]);
  });

  it('when the user logs out, the tokens are revoked and the file is gone', async () => {
    const file = join(home, '.config', 'spam-check', 'config.json');
    const { tokens } = JSON.parse(readFileSync(file, 'utf8'));
    expect((await run(['logout'])).code).toBe(0);
    expect(() => statSync(file)).toThrow();
    const response = await fetch(`${stack.gateway}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
    });
    expect(response.status).toBe(400);
  });
  it('when a server logs in with --client-credentials, no user is needed and checks work with the kept token', async () => {
    const result = await loginAs(['--client-credentials']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('as client demo-client');
    const kept = JSON.parse(readFileSync(join(home, '.config', 'spam-check', 'config.json'), 'utf8'));
    expect(kept).toMatchObject({ grant: 'client_credentials', tokens: { access_token: expect.any(String) } });
    expect(kept.tokens.refresh_token).toBeUndefined();
    const ham = await run(['mail', 'anna.schmidt@example.org', '--json']);
    expect(ham.code).toBe(0);
    expect(mailResultSchema.parse(JSON.parse(ham.stdout)).verdict).not.toBe('spam');
  });
});
