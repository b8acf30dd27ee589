import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  isSpamCheckError,
  retryAfterSeconds,
  type MailResult,
  type Problem,
  type SpamCheckClient,
} from '@spam-check/client';
import { SingleBar } from 'cli-progress';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CliError, EXIT } from './exit-codes';

export interface FileCheckOptions {
  input: string;
  output: string;
  column: string;
  batchSize: number;
  concurrency: number;
  /** Show a progress bar on stderr (when it is a terminal). */
  progress: boolean;
}

export interface FileSummary {
  rows: number;
  /** Rows found in the output from an earlier run, not checked again. */
  skipped: number;
  checked: number;
  ham: number;
  suspicious: number;
  spam: number;
  /** Rows answered with a problem (e.g. an address over the length limit): the error column says which. */
  failed: number;
  seconds: number;
  rows_per_second: number;
}

const RESULT_COLUMNS = ['verdict', 'score', 'valid', 'suggestion', 'reasons', 'error'];

type Outcome = MailResult | { error: Problem };

function readCsv(path: string, what: string): string[][] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read the ${what} ${path}: ${(error as Error).message}`, EXIT.DATA);
  }
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    throw new CliError(`${path} is not valid CSV: ${(error as Error).message}`, EXIT.DATA);
  }
}

function resultCells(outcome: Outcome): string[] {
  if ('error' in outcome) return ['', '', '', '', '', outcome.error.code];
  return [
    outcome.verdict,
    String(outcome.score),
    String(outcome.valid),
    outcome.suggestion ?? '',
    outcome.reasons.map((reason) => reason.code).join(' '),
    '',
  ];
}

/**
 * The rows of an earlier run in `output`: it is written in input order, so they are the first rows of the
 * input. A last line cut short by a crash is removed. An output of another input (other header, other
 * addresses) is refused rather than mixed.
 */
function resumePoint(output: string, header: string[], data: string[][], column: number): number {
  if (!existsSync(output)) {
    writeFileSync(output, stringify([header]));
    return 0;
  }
  const text = readFileSync(output, 'utf8');
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  if (complete !== text) writeFileSync(output, complete);
  if (complete === '') {
    writeFileSync(output, stringify([header]));
    return 0;
  }
  const rows = parse(complete, { bom: true, relax_column_count: true });
  const mismatch = () =>
    new CliError(`${output} holds the results of another input: choose another --output`, EXIT.DATA);
  if (rows[0]?.join('\u0000') !== header.join('\u0000')) throw mismatch();
  const done = rows.length - 1;
  if (done > data.length) throw mismatch();
  for (let i = 0; i < done; i += 1) if (rows[i + 1]![column] !== data[i]![column]) throw mismatch();
  return done;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One batch of addresses, to the end: the items the rate limit left out (per-item `RATE_LIMITED`) are sent
 * again after `Retry-After`, and so is the whole batch when it is refused with 429 after the client's own
 * retries. Rate limiting only slows a file down; any other failure stops the run (the rows written so far
 * stay, and the next run resumes after them).
 */
async function checkBatch(client: SpamCheckClient, emails: string[]): Promise<Outcome[]> {
  const outcomes = new Array<Outcome>(emails.length);
  let pending = emails.map((_, index) => index);
  while (pending.length > 0) {
    let retryAfter: number | undefined;
    try {
      const { results } = await client.checkMailBatch(
        pending.map((index) => emails[index]!),
        { onAnswer: (answer) => (retryAfter = retryAfterSeconds(answer.headers.get('retry-after'))) },
      );
      const limited: number[] = [];
      results.forEach((result, position) => {
        const index = pending[position]!;
        if ('error' in result && result.error.code === 'RATE_LIMITED') limited.push(index);
        else outcomes[index] = result;
      });
      pending = limited;
    } catch (error) {
      if (!isSpamCheckError(error) || error.code !== 'RATE_LIMITED') throw error;
      retryAfter = error.retryAfter;
    }
    if (pending.length > 0) await sleep((retryAfter ?? 1) * 1000 * (1 + Math.random() * 0.2));
  }
  return outcomes;
}

/** The index of the addresses' column (`--column`, any case); a missing column is a data error. */
function columnOf(header: string[], options: FileCheckOptions): number {
  const column = header.findIndex((name) => name.trim().toLowerCase() === options.column.toLowerCase());
  if (column < 0)
    throw new CliError(
      `${options.input} has no column "${options.column}" (columns: ${header.join(', ')}); choose one with --column`,
      EXIT.DATA,
    );
  return column;
}

function progressBar(): SingleBar {
  return new SingleBar({
    format: 'checking {bar} {percentage}% | {value}/{total} rows | {rate} rows/s | ETA {eta_formatted}',
    stream: process.stderr,
    hideCursor: true,
  });
}

/**
 * `spam-check mail --input file.csv --output results.csv`: the addresses of one column, in batches of
 * `batchSize` with up to `concurrency` batches in flight. The output is the input with the result columns
 * added, written in input order as batches finish (a batch that finishes early waits for the ones before
 * it), so a run that stops leaves a prefix of the input, and the next run on the same output goes on after it.
 */
export async function checkFile(client: SpamCheckClient, options: FileCheckOptions): Promise<FileSummary> {
  const started = Date.now();
  const [header, ...data] = readCsv(options.input, 'input');
  if (!header) throw new CliError(`${options.input} is empty`, EXIT.DATA);
  const column = columnOf(header, options);
  const outputHeader = [...header, ...RESULT_COLUMNS];
  const skipped = resumePoint(options.output, outputHeader, data, column);
  const summary: FileSummary = {
    rows: data.length,
    skipped,
    checked: 0,
    ham: 0,
    suspicious: 0,
    spam: 0,
    failed: 0,
    seconds: 0,
    rows_per_second: 0,
  };

  const batches: string[][][] = [];
  for (let start = skipped; start < data.length; start += options.batchSize)
    batches.push(data.slice(start, start + options.batchSize));

  const bar = options.progress ? progressBar() : undefined;
  bar?.start(data.length, skipped, { rate: 0 });

  const finished = new Map<number, Outcome[]>();
  let written = 0;
  const flush = () => {
    for (let outcomes = finished.get(written); outcomes; outcomes = finished.get(written)) {
      const rows = batches[written]!;
      appendFileSync(options.output, stringify(rows.map((row, i) => [...row, ...resultCells(outcomes[i]!)])));
      for (const outcome of outcomes) {
        if ('error' in outcome) summary.failed += 1;
        else summary[outcome.verdict] += 1;
      }
      summary.checked += rows.length;
      finished.delete(written);
      written += 1;
      const seconds = (Date.now() - started) / 1000;
      bar?.update(skipped + summary.checked, {
        rate: Math.round(summary.checked / Math.max(seconds, 0.001)),
      });
    }
  };

  let next = 0;
  let failure: Error | undefined;
  const worker = async () => {
    while (next < batches.length && failure === undefined) {
      const index = next++;
      try {
        finished.set(
          index,
          await checkBatch(
            client,
            batches[index]!.map((row) => row[column] ?? ''),
          ),
        );
      } catch (error) {
        failure ??= error as Error;
        return;
      }
      flush();
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, batches.length) }, worker));
  } finally {
    bar?.stop();
  }
  if (failure) throw failure;
  summary.seconds = Math.round((Date.now() - started) / 100) / 10;
  summary.rows_per_second = Math.round(summary.checked / Math.max(summary.seconds, 0.1));
  return summary;
}
