import { createLogger, createMetrics } from '@spam-check/service-kit';
import { percentile } from '@spam-check/process-kit';
import { loadServiceConfig } from '../src/config';
import { composeTextCheck } from '../src/compose';
import type { CheckText } from '../src/domain/check-text';
import { LIMIT_INPUTS, repeatTo, type LimitInput } from './limit-inputs';

const PARAGRAPH =
  'Hello everyone, I wanted to share a few thoughts about the new release. The installer works fine on my ' +
  'machine, but the settings page still shows the old layout after an update. Has anyone seen this? ' +
  'More details at https://example.org/forum/thread/1234 and in the attached log. Thanks a lot! ';
export const TEXT_2KB = { title: 'Question about the new release', body: PARAGRAPH.repeat(8).slice(0, 2048) };

/** The service's text check with the LLM off, built as `main.ts` builds it. */
async function localTextCheck(): Promise<CheckText> {
  const config = loadServiceConfig({
    LOG_LEVEL: 'silent',
    TEXT_LLM_MODE: 'never',
    TEXT_DENY_TERMS: 'forbidden',
  });
  const logger = createLogger({ service: 'text-detector-bench', level: 'silent' });
  return (await composeTextCheck(config, logger, createMetrics('text-detector'))).checkText;
}

/** Checks per second and p50/p99 latency for a 2 KB text, LLM off, in this process (one core), `seconds` long. */
export async function benchThroughput(seconds = 8): Promise<void> {
  const checkText = await localTextCheck();
  for (let i = 0; i < 500; i++) await checkText({ ...TEXT_2KB, language: 'en', requestId: 'warmup' });
  const latencies: number[] = [];
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(seconds * 1e9);
  for (;;) {
    const t0 = process.hrtime.bigint();
    await checkText({ ...TEXT_2KB, language: 'en', requestId: 'bench' });
    const t1 = process.hrtime.bigint();
    latencies.push(Number(t1 - t0) / 1e6);
    if (t1 > deadline) break;
  }
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  console.log(`2 KB text, LLM off, one process (${latencies.length} checks in ${wallSeconds.toFixed(1)} s):`);
  console.log(`  checks/s (wall)     ${(latencies.length / wallSeconds).toFixed(0)}`);
  console.log(`  checks/s (per CPU s) ${(latencies.length / ((cpu.user + cpu.system) / 1e6)).toFixed(0)}`);
  console.log(
    `  p50 ${percentile(latencies, 0.5).toFixed(3)} ms, p99 ${percentile(latencies, 0.99).toFixed(3)} ms`,
  );
}

/** CPU time per check of the inputs at the limits (`limit-inputs.ts`) and of realistic prose, worst of 3. */
export async function benchLimits(): Promise<void> {
  const checkText = await localTextCheck();
  const cases: [string, LimitInput][] = [
    ...LIMIT_INPUTS,
    ['realistic prose', { title: TEXT_2KB.title, body: repeatTo(PARAGRAPH, 100_000) }],
  ];
  console.log('inputs at the limits (title 1,000, body 100,000 characters), CPU ms per check, worst of 3:');
  for (const [name, input] of cases) {
    let worst = 0;
    for (let i = 0; i < 3; i++) {
      const before = process.cpuUsage();
      await checkText({ ...input, language: 'en', requestId: 'limits' });
      const used = process.cpuUsage(before);
      worst = Math.max(worst, (used.user + used.system) / 1000);
    }
    console.log(`  ${name.padEnd(31)} ${worst.toFixed(1)} ms`);
  }
}
