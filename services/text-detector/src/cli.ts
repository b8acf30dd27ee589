import { writeFileSync } from 'node:fs';
import { connectRedis } from '@spam-check/service-kit';
import { loadServiceConfig } from './config';
import { createFeedbackStore } from './compose';
import { readModelFile } from './data-access/model-file';
import { exportLines } from './entry-points/cli/export';

/** `pnpm --filter @spam-check/text-detector feedback export ...`: reads the configured Redis. */
async function cli(): Promise<number> {
  const config = loadServiceConfig();
  if (!config.redis) {
    console.error('Redis is not configured: without Redis, feedback lives in the service process only.');
    return 2;
  }
  const redis = await connectRedis({
    target: config.redis,
    name: 'redis',
    // stdout carries the export: the connection's messages go to stderr.
    logger: { warn: (_details, message) => console.error(message), info: () => undefined },
  });
  try {
    const store = createFeedbackStore(config, readModelFile(config.TEXT_MODEL_PATH), redis.client);
    const { lines, out } = await exportLines(process.argv.slice(2), store);
    const text = lines.map((line) => `${line}\n`).join('');
    if (out === undefined) process.stdout.write(text);
    else {
      writeFileSync(out, text);
      console.error(`wrote ${lines.length} reports to ${out}`);
    }
    return 0;
  } finally {
    await redis.closer.close();
  }
}

cli().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(error instanceof Error && error.message.startsWith('usage:') ? 2 : 1);
  },
);
