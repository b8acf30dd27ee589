import { randomUUID } from 'node:crypto';
import { freePort, startService, stopService, type ServiceProcess } from '@spam-check/process-kit';
import { redisUrl } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { postJson } from './client';
import { removeRunKeys } from './redis-keys';

// Two deployments on one Redis keep their client settings apart by CLIENT_SETTINGS_PREFIX and
// CLIENT_SETTINGS_CHANNEL. The text detector as its own process; the settings written as the admin API
// writes them (one JSON value per client under the prefix, the client id published on the channel).
describe('client settings under a prefix and channel of their own', () => {
  const run = randomUUID().slice(0, 8);
  const location = { prefix: `loc-${run}:settings:`, channel: `loc-${run}:settings` };
  const term = `Quxlor${run}`;
  let detector: ServiceProcess;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(redisUrl());
    detector = await startService(
      'text-detector',
      {
        LOG_LEVEL: 'warn',
        REDIS_URL: redisUrl(),
        AMQP_URL: undefined,
        TEXT_LLM_MODE: 'never',
        TEXT_FEEDBACK_PREFIX: `loc-${run}:text-feedback:`,
        CLIENT_SETTINGS_PREFIX: location.prefix,
        CLIENT_SETTINGS_CHANNEL: location.channel,
      },
      await freePort(),
      { timeoutMs: 150_000 },
    );
  }, 180_000);

  afterAll(async () => {
    if (detector) await stopService(detector);
    await removeRunKeys(`loc-${run}:`);
    await redis.del(`spam-check:client-settings:other-${run}`);
    redis.disconnect();
  });

  const check = (client: string) =>
    postJson(
      `${detector.url}/v1/check`,
      undefined,
      { title: 'Hallo', body: `Wir empfehlen ${term} allen Lesern.` },
      { 'x-client-id': client },
    );
  const codes = (answer: { body: { reasons: { code: string }[] } }) =>
    answer.body.reasons.map((reason) => reason.code);

  it("when settings are written under the deployment's prefix, its detector applies them; another deployment's are not read", async () => {
    const settings = JSON.stringify({ text: { deny_terms: [term] } });
    await redis.set(`${location.prefix}mine-${run}`, settings);
    await redis.publish(location.channel, `mine-${run}`);
    // Another deployment on the same Redis, with the default prefix and channel.
    await redis.set(`spam-check:client-settings:other-${run}`, settings);
    await redis.publish('spam-check:client-settings', `other-${run}`);

    const mine = await check(`mine-${run}`);
    expect(mine.status).toBe(200);
    expect(codes(mine)).toContain('TEXT_CLIENT_DENY_LISTED');
    const other = await check(`other-${run}`);
    expect(other.status).toBe(200);
    expect(codes(other)).not.toContain('TEXT_CLIENT_DENY_LISTED');
  });
});
