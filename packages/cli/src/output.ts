import type { HybridResult, MailResult, TextResult } from '@spam-check/client';
import type { FileSummary } from './check-file';

type Result = MailResult | TextResult | HybridResult;

function reasonLines(result: MailResult | TextResult): string[] {
  return result.reasons.map((reason) => `  ${reason.code} (${reason.weight}): ${reason.message}`);
}

/** A check result for people: the verdict first, then why. */
export function formatResult(kind: 'mail' | 'text' | 'hybrid', result: Result): string {
  const lines = [`${result.verdict} (score ${result.score})`];
  if (kind === 'hybrid') {
    const hybrid = result as HybridResult;
    lines.push(`mode: ${hybrid.mode}`, `e-mail: ${hybrid.email.verdict} (score ${hybrid.email.score})`);
    lines.push(...reasonLines(hybrid.email));
    if (hybrid.text)
      lines.push(`text: ${hybrid.text.verdict} (score ${hybrid.text.score})`, ...reasonLines(hybrid.text));
    else lines.push('text: skipped');
  } else {
    if (kind === 'mail' && (result as MailResult).suggestion)
      lines.push(`did you mean: ${(result as MailResult).suggestion}`);
    const reasons = reasonLines(result as MailResult | TextResult);
    lines.push(reasons.length ? 'reasons:' : 'reasons: none', ...reasons);
  }
  lines.push(`request id: ${result.request_id}`);
  return `${lines.join('\n')}\n`;
}

/** The summary of a file as a two-column table. */
export function formatSummary(summary: FileSummary): string {
  const rows: [string, string][] = [
    ['rows', String(summary.rows)],
    ['already done (skipped)', String(summary.skipped)],
    ['checked now', String(summary.checked)],
    ['ham', String(summary.ham)],
    ['suspicious', String(summary.suspicious)],
    ['spam', String(summary.spam)],
    ['failed (see error column)', String(summary.failed)],
    ['seconds', String(summary.seconds)],
    ['rows per second', String(summary.rows_per_second)],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  const rule = `+-${'-'.repeat(width)}-+-${'-'.repeat(valueWidth)}-+`;
  const body = rows.map(([name, value]) => `| ${name.padEnd(width)} | ${value.padStart(valueWidth)} |`);
  return `${[rule, ...body, rule].join('\n')}\n`;
}
