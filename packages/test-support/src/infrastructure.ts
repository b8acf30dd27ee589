/**
 * URLs of the real Redis and RabbitMQ the tests run against (see global-setup.js). A suite that needs one
 * and finds none fails with a message saying what to set; it is never skipped.
 */
function required(variable: 'REDIS_URL' | 'AMQP_URL'): string {
  const value = process.env[variable];
  if (value) return value;
  throw new Error(
    `${process.env[`${variable}_UNAVAILABLE`] ?? `${variable} is not set.`} ` +
      `Set ${variable} (e.g. ${variable === 'REDIS_URL' ? 'redis://127.0.0.1:6379' : 'amqp://guest:guest@127.0.0.1:5672'}) or run a Docker engine for testcontainers.`,
  );
}

export const redisUrl = (): string => required('REDIS_URL');
export const amqpUrl = (): string => required('AMQP_URL');
