import type { CheckListQuery, FeedbackByCheck, ReviewItem } from '@spam-check/client';
import { SingleBar } from 'cli-progress';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CliError, EXIT } from './exit-codes';
import { positiveInt, readText, signedInClient, withCommon, type Common } from './session';

/** Reports per request: the API's maximum. */
const REPORTS_PER_REQUEST = 100;
const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `24h`, `30m`, `7d` (that long ago) or an RFC 3339 time. */
function timeOption(value: string, now = Date.now()): string {
  const relative = /^(\d+)([mhd])$/.exec(value.trim());
  if (relative) return new Date(now - Number(relative[1]) * UNITS[relative[2]!]!).toISOString();
  if (!Number.isNaN(Date.parse(value)) && /^\d{4}-\d\d-\d\dT/.test(value)) return value;
  throw new InvalidArgumentError('expected a duration (30m, 24h, 7d) or an RFC 3339 time');
}

const CSV_COLUMNS = [
  'id',
  'created_at',
  'kind',
  'verdict',
  'score',
  'reasons',
  'language',
  'report',
  'preview',
  'content',
];

function csvRow(item: ReviewItem): string[] {
  const preview = item.preview ? [item.preview.domain, item.preview.title, item.preview.body] : [];
  return [
    item.id,
    item.created_at,
    item.kind,
    item.verdict,
    String(item.score),
    item.reasons.join(' '),
    item.language ?? '',
    item.report?.label ?? '',
    preview.filter((part) => part !== undefined).join(' | '),
    item.content ? JSON.stringify(item.content) : '',
  ];
}

function line(item: ReviewItem): string {
  const report = item.report ? ` reported ${item.report.label}` : '';
  const preview = item.preview?.title ?? item.preview?.domain ?? '';
  return `${item.created_at}  ${item.kind.padEnd(6)} ${item.verdict.padEnd(10)} ${item.score.toFixed(2)}  ${item.id}${report}  ${item.reasons.join(',')}${preview ? `  "${preview}"` : ''}\n`;
}

interface ChecksOptions extends Common {
  verdict?: ('ham' | 'suspicious' | 'spam')[];
  kind?: 'mail' | 'text' | 'hybrid';
  reason?: string;
  reported?: 'true' | 'false';
  since?: string;
  until?: string;
  max?: number;
  csv?: boolean;
}

/** `spam-check checks`: the signed-in client's recent checks, newest first, as lines, CSV or JSON lines. */
export function checksCommand(program: Command, env: NodeJS.ProcessEnv, done: (code: number) => void): void {
  withCommon(program.command('checks'))
    .description("list the client's recent checks, newest first (GET /api/v1/checks)")
    .addOption(
      new Option('--verdict <verdict...>', 'only these verdicts (repeatable)').choices([
        'ham',
        'suspicious',
        'spam',
      ]),
    )
    .addOption(new Option('--kind <kind>', 'only this kind of check').choices(['mail', 'text', 'hybrid']))
    .option('--reason <code>', 'only checks with this reason code')
    .addOption(
      new Option('--reported <yes>', 'only reported (true) or unreported (false) checks').choices([
        'true',
        'false',
      ]),
    )
    .option('--since <when>', 'from this long ago (30m, 24h, 7d) or this RFC 3339 time', (value) =>
      timeOption(value),
    )
    .option('--until <when>', 'before this long ago or this RFC 3339 time', (value) => timeOption(value))
    .option('--max <n>', 'at most this many checks (default: all)', positiveInt(1_000_000))
    .option('--csv', 'print CSV with a header row')
    .action(async (options: ChecksOptions) => {
      const query: CheckListQuery = {
        ...(options.verdict ? { verdict: options.verdict } : {}),
        ...(options.kind ? { kind: options.kind } : {}),
        ...(options.reason ? { reason: options.reason } : {}),
        ...(options.reported ? { reported: options.reported === 'true' } : {}),
        ...(options.since ? { since: options.since } : {}),
        ...(options.until ? { until: options.until } : {}),
        limit: 100,
      };
      const max = options.max ?? Number.POSITIVE_INFINITY;
      if (options.csv) process.stdout.write(stringify([CSV_COLUMNS]));
      let printed = 0;
      for await (const page of signedInClient(options, env).checks.list(query)) {
        for (const item of page.items.slice(0, max - printed)) {
          if (options.csv) process.stdout.write(stringify([csvRow(item)]));
          else process.stdout.write(options.json ? `${JSON.stringify(item)}\n` : line(item));
        }
        printed += Math.min(page.items.length, max - printed);
        if (printed >= max) break;
      }
      done(EXIT.OK);
    });
}

/** The reports of a CSV file with the columns `check_id` and `label`, each row checked. */
function reportsOf(path: string): FeedbackByCheck[] {
  let rows: Record<string, string>[];
  try {
    rows = parse(readText(path), { bom: true, columns: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw new CliError(`${path}: not a CSV file: ${(error as Error).message}`, EXIT.DATA);
  }
  return rows.map((row, index) => {
    const { check_id: checkId, label } = row;
    if (!checkId || (label !== 'spam' && label !== 'ham'))
      throw new CliError(
        `${path}, row ${index + 2}: expected the columns check_id and label (spam or ham)`,
        EXIT.DATA,
      );
    return { check_id: checkId, label };
  });
}

/**
 * `spam-check feedback --file reports.csv`: the corrections of a file, a hundred per request, with progress on
 * stderr (a bar on a terminal, a line per request otherwise); each refused report is named with its problem.
 */
export function feedbackCommand(
  program: Command,
  env: NodeJS.ProcessEnv,
  done: (code: number) => void,
): void {
  withCommon(program.command('feedback'))
    .description('send corrections by check id from a CSV file (columns check_id,label)')
    .requiredOption('--file <reports.csv>', 'the CSV file (- for standard input)')
    .action(async (options: Common & { file: string }) => {
      const reports = reportsOf(options.file);
      const client = signedInClient(options, env);
      const bar =
        !options.json && process.stderr.isTTY
          ? new SingleBar({ format: 'reports {bar} {value}/{total}' })
          : undefined;
      bar?.start(reports.length, 0);
      const refused: { row: number; check_id: string; code: string; detail: string }[] = [];
      for (let start = 0; start < reports.length; start += REPORTS_PER_REQUEST) {
        const chunk = reports.slice(start, start + REPORTS_PER_REQUEST);
        const { results } = await client.sendReports(chunk);
        results.forEach((result, offset) => {
          if ('error' in result)
            refused.push({
              row: start + offset + 2,
              check_id: chunk[offset]!.check_id,
              code: result.error.code,
              detail: result.error.detail,
            });
        });
        const sent = start + chunk.length;
        if (bar) bar.update(sent);
        else if (!options.json) process.stderr.write(`reports: ${sent}/${reports.length}\n`);
      }
      bar?.stop();
      const summary = { reports: reports.length, applied: reports.length - refused.length, refused };
      if (options.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
      else {
        for (const one of refused)
          process.stdout.write(`row ${one.row} (${one.check_id}): ${one.code}: ${one.detail}\n`);
        process.stdout.write(`applied ${summary.applied} of ${summary.reports}\n`);
      }
      done(refused.length > 0 ? EXIT.ROWS_FAILED : EXIT.OK);
    });
}
