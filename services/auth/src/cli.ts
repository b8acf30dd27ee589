import { loadServiceConfig } from './config';
import { createStore } from './data-access/create-store';
import { createSecretHasher } from './domain/secrets';
import { runCli, USAGE, UsageError } from './entry-points/cli/commands';

/** `pnpm --filter @spam-check/auth cli ...`: manages clients and users in the configured Redis. */
async function cli(): Promise<number> {
  const config = loadServiceConfig();
  if (!config.redis) {
    console.error(
      'Redis is not configured (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES): the CLI manages the Redis store (embedded mode keeps no state to manage).',
    );
    return 2;
  }
  const store = await createStore(config, {
    warn: (_details, message) => console.error(message),
    info: () => undefined,
  });
  try {
    return await runCli(process.argv.slice(2), {
      store,
      hasher: createSecretHasher(config.AUTH_SCRYPT_COST),
      out: (line) => console.log(line),
    });
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  } finally {
    await store.close();
  }
}

cli().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
