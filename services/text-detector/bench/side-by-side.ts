import { join } from 'node:path';
import {
  CLIENTS,
  profileDirectory,
  runStack,
  type Measured,
  type StackFigures,
} from './side-by-side/stack-run';
import { topSelfTime } from './side-by-side/cpu-profile';
import { rspamdInstalled, startRspamd } from './side-by-side/rspamd';
import { asMail, benchTexts, type BenchText } from './side-by-side/texts';

/**
 * The text check's cost beside Rspamd's, on the same 2 KB texts (`pnpm bench:side-by-side`, a few minutes):
 * - the stack as processes, as `pnpm start` runs them (default log level, feedback records kept), with four
 *   learning clients (each has reported 50 checks) checking through the gateway at once: CPU seconds per
 *   1,000 checks of each process (`/proc/<pid>/stat`), embedded (memory) and with a redis-server of the
 *   bench's own (its CPU counted, and its commands and bytes per check and per report); then the same for
 *   mail and hybrid checks (parallel, over HTTP) through the same stack;
 * - Debian's Rspamd content-only on the same texts as mails, four clients at once, where it is installed
 *   (configuration folder: `RSPAMD_CONTENT_ONLY_DIR`, by default `../shared/peers/rspamd-content-only` from the
 *   repository root), and the ratio of the project's processes to Rspamd's;
 * - the ten functions with the most self time in the text detector and in the gateway while the checks ran
 *   (`--cpu-prof`, a run of its own, since profiling costs CPU).
 * `BENCH_CHECKS` (1,500) checks are measured per run, after a warm-up of 200. `BENCH_PARTS` runs some parts
 * only (`rspamd,embedded,redis,replicas,profile`, all by default), e.g. `embedded` alone to alternate two
 * trees. `replicas`: with Redis, one text detector against two behind the gateway (a round-robin TCP proxy
 * between them), for the CPU per check and the throughput of each.
 */
const CHECKS = Number(process.env.BENCH_CHECKS ?? 1500);
const PARTS = new Set((process.env.BENCH_PARTS ?? 'rspamd,embedded,redis,replicas,profile').split(','));
const RSPAMD_DIR =
  process.env.RSPAMD_CONTENT_ONLY_DIR ??
  join(__dirname, '..', '..', '..', '..', 'shared', 'peers', 'rspamd-content-only');

/** Rspamd's CPU seconds per 1,000 texts, or a reason why there is no figure. */
async function rspamdPer1000(texts: BenchText[]): Promise<number | string> {
  if (!rspamdInstalled()) return 'rspamd is not installed (apt-get install rspamd): no Rspamd column';
  const rspamd = await startRspamd(RSPAMD_DIR);
  try {
    const mails = texts.map(asMail);
    const run = async (count: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          for (let index = next++; index < count; index = next++) {
            const response = await fetch(`${rspamd.url}/checkv2`, {
              method: 'POST',
              body: mails[index % mails.length],
            });
            if (!response.ok) throw new Error(`rspamd answered ${response.status}`);
            await response.arrayBuffer();
          }
        }),
      );
    };
    await run(200);
    const before = rspamd.cpuSeconds();
    await run(CHECKS);
    return ((rspamd.cpuSeconds() - before) * 1000) / CHECKS;
  } finally {
    rspamd.stop();
  }
}

const total = (figures: Measured) => Object.values(figures.cpuPer1000).reduce((a, b) => a + b, 0);

function printMeasured(kind: string, figures: Measured, rspamd: number | string): void {
  for (const [name, seconds] of Object.entries(figures.cpuPer1000))
    console.log(`  ${name.padEnd(16)} ${seconds.toFixed(2)} CPU s per 1,000 ${kind} checks`);
  console.log(`  ${'all'.padEnd(16)} ${total(figures).toFixed(2)} CPU s per 1,000 ${kind} checks`);
  if (kind === 'text' && typeof rspamd === 'number')
    console.log(`  ratio to Rspamd  ${(total(figures) / rspamd).toFixed(2)}`);
  console.log(`  ${kind} checks/s (wall, at this machine's load): ${figures.checksPerSecond.toFixed(0)}`);
  if (figures.redis) {
    const { opsPerCheck, bytesPerCheck, memoryPerCheck } = figures.redis;
    console.log(
      `  Redis per ${kind} check: ${opsPerCheck.toFixed(1)} commands, ${bytesPerCheck.toFixed(0)} bytes in and out, ${memoryPerCheck.toFixed(0)} bytes more held`,
    );
  }
}

function printStack(figures: StackFigures, rspamd: number | string, title?: string): void {
  console.log(
    `\n${title ?? (figures.mode === 'redis' ? 'with Redis (own redis-server)' : 'embedded (no Redis)')}:`,
  );
  printMeasured('text', figures, rspamd);
  for (const [kind, measured] of Object.entries(figures.kinds)) printMeasured(kind, measured, rspamd);
  console.log(`  text detector RSS after the run: ${figures.detectorRssMb.toFixed(0)} MB`);
  if (figures.reports) {
    const { opsPerReport, bytesPerReport } = figures.reports;
    console.log(
      `  Redis per report: ${opsPerReport.toFixed(1)} commands, ${bytesPerReport.toFixed(0)} bytes in and out`,
    );
  }
}

export async function benchSideBySide(): Promise<void> {
  const texts = benchTexts();
  const size = texts.reduce((sum, text) => sum + text.body.length + text.title.length, 0) / texts.length;
  console.log(
    `side by side: ${texts.length} texts of ${size.toFixed(0)} characters on average, ${CLIENTS} clients at once, ${CHECKS} checks per run`,
  );
  const rspamd = PARTS.has('rspamd')
    ? await rspamdPer1000(texts).catch((error: unknown) => `Rspamd failed: ${String(error)}`)
    : 'Rspamd not run (BENCH_PARTS)';
  console.log(
    typeof rspamd === 'number'
      ? `\nRspamd content-only: ${rspamd.toFixed(2)} CPU s per 1,000 texts`
      : `\n${rspamd}`,
  );
  for (const mode of (['embedded', 'redis'] as const).filter((part) => PARTS.has(part)))
    printStack(await runStack({ mode, texts, checks: CHECKS, kinds: ['mail', 'hybrid'] }), rspamd);
  if (PARTS.has('replicas'))
    for (const detectors of [1, 2] as const) {
      const figures = await runStack({ mode: 'redis', texts, checks: CHECKS, detectors });
      printStack(
        figures,
        rspamd,
        `with Redis, ${detectors} text detector process${detectors === 1 ? '' : 'es'}`,
      );
    }
  if (!PARTS.has('profile')) return;
  const directory = profileDirectory();
  const profiled = (name: string) => ['--cpu-prof', `--cpu-prof-dir=${join(directory, name)}`];
  const { window } = await runStack({
    mode: 'embedded',
    texts,
    checks: CHECKS,
    nodeArgs: { 'text-detector': profiled('text-detector'), gateway: profiled('gateway') },
  });
  for (const name of ['text-detector', 'gateway']) {
    console.log(
      `\n${name}: the ten functions with the most self time while measured (${join(directory, name)}):`,
    );
    for (const { name: where, ms, share } of topSelfTime(join(directory, name), window))
      console.log(`  ${(share * 100).toFixed(1).padStart(5)} %  ${ms.toFixed(0).padStart(6)} ms  ${where}`);
  }
}
