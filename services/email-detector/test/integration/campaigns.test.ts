import { createRpcClient, rpcQueueName, type RpcClient } from '@spam-check/amqp-rpc';
import { connectClientSettings } from '@spam-check/client-settings';
import { mailResultSchema, type MailResult } from '@spam-check/contracts';
import { keyedHash } from '@spam-check/client-state';
import {
  createLogger,
  createMetrics,
  serve,
  type RunningService,
  type StartedService,
} from '@spam-check/service-kit';
import {
  amqpUrl,
  campaignMemory,
  campaignTest,
  redisUrl,
  removeKeysUnder,
  storeCampaignSettings,
} from '@spam-check/test-support';
import { connect } from 'amqplib';
import { Redis } from 'ioredis';
import { compose } from '../../src/compose';
import { loadServiceConfig } from '../../src/config';

// Campaigns shared between clients (docs/design.md, Campaigns) on two replicas of the e-mail detector (HTTP
// and their RPC consumers on one queue), one Redis: an address or a domain reported by enough distinct
// sharing clients is at least suspicious for protecting clients only.
const { run, prefix, ids, env: campaignEnv } = campaignTest('email');
const queue = `test.email-campaigns.${run}`;
const env = {
  LOG_LEVEL: 'silent',
  EMAIL_DNS_CHECK: 'off',
  REDIS_URL: redisUrl(),
  AMQP_URL: amqpUrl(),
  EMAIL_FEEDBACK_PREFIX: prefix,
  EMAIL_RPC_QUEUE: queue,
  ...campaignEnv,
};
const domain = `offers-${run}.example`;
/** A sharing client that reports through the replica keeping two reports per client. */
const capped = ids.capped;

interface Replica {
  url: string;
  started: StartedService;
  service: RunningService;
}

async function startReplica(overrides: Record<string, string> = {}): Promise<Replica> {
  const config = loadServiceConfig({ ...env, ...overrides });
  const logger = createLogger({ service: 'email-detector-test', level: 'silent' });
  const started = await compose({ config, logger, metrics: createMetrics('email-detector') });
  const service = await serve(started.app, {
    port: 0,
    host: '127.0.0.1',
    logger,
    readiness: started.readiness,
    closers: started.closers,
  });
  return { url: `http://127.0.0.1:${service.port}`, started, service };
}

async function post(url: string, path: string, client: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-id': client },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const codes = (result: MailResult) => result.reasons.map((reason) => reason.code);

describe('e-mail campaigns shared between clients (two replicas, Redis, RabbitMQ)', () => {
  let redis: Redis;
  let replicas: Replica[] = [];
  let rpc: RpcClient;

  beforeAll(async () => {
    redis = new Redis(redisUrl());
    const settings = await connectClientSettings(
      { kind: 'single', url: redisUrl() },
      createLogger({ service: 'test', level: 'silent' }),
      {
        prefix: env.CLIENT_SETTINGS_PREFIX,
        channel: env.CLIENT_SETTINGS_CHANNEL,
      },
    );
    await storeCampaignSettings(settings, ids);
    // The third keeps two signatures per client (an address and its domain): its bound is reached at once;
    // the fourth two reports per client.
    replicas = await Promise.all([
      startReplica(),
      startReplica(),
      startReplica({ CAMPAIGN_MAX_SIGNATURES_PER_CLIENT: '2' }),
      startReplica({ FEEDBACK_MAX_REPORTS: '2' }),
    ]);
    for (
      let attempt = 0;
      !replicas.every((replica) => replica.started.consumers?.amqp?.isConnected());
      attempt++
    ) {
      if (attempt === 100) throw new Error('the RPC consumers did not connect within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    rpc = createRpcClient({ url: amqpUrl(), logger: createLogger({ service: 'test', level: 'silent' }) });
    await rpc.ready();
  }, 60_000);

  afterAll(async () => {
    await rpc.close();
    for (const replica of replicas) {
      await replica.started.consumers?.amqp?.close();
      await replica.service.stop();
    }
    const connection = await connect(amqpUrl());
    const channel = await connection.createChannel();
    await channel.deleteQueue(rpcQueueName(queue, 'quorum'));
    await connection.close();
    await removeKeysUnder(redis, prefix);
    redis.disconnect();
  });

  const checked = async (replica: number, client: string, email: string) => {
    const response = await post(replicas[replica]!.url, '/v1/check', client, { email });
    expect(response.status).toBe(200);
    return mailResultSchema.parse(response.body);
  };
  const report = async (replica: number, client: string, email: string, label: 'spam' | 'ham') =>
    (await post(replicas[replica]!.url, '/v1/feedback', client, { email, label })).status;
  const overRpc = async (client: string, email: string) =>
    mailResultSchema.parse(
      await rpc.call(queue, { email }, { timeoutMs: 10_000, headers: { 'x-client-id': client } }),
    );

  it('when two sharing clients report addresses of one domain, a new address there is suspicious for protecting clients only, on every replica and over RPC', async () => {
    const unseen = `sales@${domain}`;
    const before = await checked(0, ids.protectedOnly, unseen);
    expect(before.verdict).toBe('ham');

    expect(await report(0, ids.first, `anna@${domain}`, 'spam')).toBe(200);
    const afterOne = await checked(1, ids.protectedOnly, unseen);
    expect(codes(afterOne)).not.toContain('EMAIL_CAMPAIGN');
    expect(afterOne.score).toBe(before.score);

    expect(await report(1, ids.second, `bernd@${domain}`, 'spam')).toBe(200);
    for (const replica of [0, 1]) {
      const flagged = await checked(replica, ids.protectedOnly, unseen);
      expect(codes(flagged)).toContain('EMAIL_CAMPAIGN');
      expect(flagged.verdict).not.toBe('ham');
    }
    const viaRpc = await overRpc(ids.protectedOnly, unseen);
    expect(codes(viaRpc)).toContain('EMAIL_CAMPAIGN');
    expect(viaRpc.verdict).not.toBe('ham');

    const outside = await checked(1, ids.outside, unseen);
    expect(codes(outside)).not.toContain('EMAIL_CAMPAIGN');
    expect(outside.score).toBe(before.score);

    // A ham report withdraws the reporter's own contribution.
    expect(await report(0, ids.second, `bernd@${domain}`, 'ham')).toBe(200);
    expect(codes(await checked(1, ids.protectedOnly, unseen))).not.toContain('EMAIL_CAMPAIGN');
  });

  it('when two clients report addresses at a free mail provider, the provider is not a campaign, the address is', async () => {
    const reported = `winner.${run}@gmail.com`;
    expect(await report(0, ids.first, reported, 'spam')).toBe(200);
    expect(await report(1, ids.second, `other.${run}@gmail.com`, 'spam')).toBe(200);
    expect(codes(await checked(0, ids.protectedOnly, `friend.${run}@gmail.com`))).not.toContain(
      'EMAIL_CAMPAIGN',
    );
    expect(await report(1, ids.second, reported, 'spam')).toBe(200);
    expect(codes(await checked(0, ids.protectedOnly, reported))).toContain('EMAIL_CAMPAIGN');
  });

  it('when one client reports a thousand addresses as spam, no other client sees any change', async () => {
    const addresses = Array.from({ length: 1000 }, (_, i) => `member${i}@club-${run}-${i % 10}.example`);
    const sample = addresses.filter((_, i) => i % 100 === 0);
    const before = await Promise.all(sample.map((email) => checked(0, ids.protectedOnly, email)));
    for (let i = 0; i < addresses.length; i += 4)
      await Promise.all(
        addresses
          .slice(i, i + 4)
          .map(async (email, k) => expect(await report((i + k) % 2, ids.poisoner, email, 'spam')).toBe(200)),
      );
    const after = await Promise.all(sample.map((email) => checked(1, ids.protectedOnly, email)));
    after.forEach((result, i) => {
      expect(codes(result)).not.toContain('EMAIL_CAMPAIGN');
      expect(result.score).toBe(before[i]!.score);
    });
    expect(codes(await checked(1, ids.poisoner, sample[0]!))).toContain('EMAIL_REPORTED_SPAM');
  }, 300_000);

  const hash = (value: string) => keyedHash(env.PRIVACY_HASH_KEY, value);
  const member = (client: string) => hash(`client\n${client}`);
  const signatureKeys = (email: string) => {
    const at = email.lastIndexOf('@');
    return [
      `${prefix}campaign:{${hash(`email-address:${hash(email)}`)}}`,
      `${prefix}campaign:{${hash(`email-domain:${hash(email.slice(at + 1))}`)}}`,
    ];
  };
  /** A contribution as an earlier release stored it: a field with the time of the report, no index entry. */
  const storedEarlier = async (client: string, email: string, at: number) => {
    for (const key of signatureKeys(email)) await redis.hset(key, member(client), at);
  };
  const DAY_MS = 86_400_000;

  it('when a client that no longer shares reports ham, its earlier spam contribution is withdrawn', async () => {
    const email = `quit@left-${run}.example`;
    // `protectedOnly` shares nothing now; its contribution is from when it did.
    await storedEarlier(ids.protectedOnly, email, Date.now());
    expect(await report(0, ids.second, email, 'spam')).toBe(200);
    expect(codes(await checked(1, ids.first, email))).toContain('EMAIL_CAMPAIGN');

    expect(await report(1, ids.protectedOnly, email, 'ham')).toBe(200);
    for (const key of signatureKeys(email))
      expect(await redis.hexists(key, member(ids.protectedOnly))).toBe(0);
    expect(codes(await checked(0, ids.first, email))).not.toContain('EMAIL_CAMPAIGN');
  });

  it('when a client report is older than the report retention, it no longer counts, though another client reported since', async () => {
    const email = `old@expired-${run}.example`;
    await storedEarlier(ids.first, email, Date.now() - 181 * DAY_MS);
    expect(await report(0, ids.second, email, 'spam')).toBe(200);
    expect(codes(await checked(1, ids.protectedOnly, email))).not.toContain('EMAIL_CAMPAIGN');
  });

  it('when a client reports past its bound of signatures, its oldest ones are withdrawn and no longer count', async () => {
    const older = `first@bounded-${run}.example`;
    const newer = `second@bounded-other-${run}.example`;
    expect(await report(2, ids.poisoner, older, 'spam')).toBe(200);
    expect(await report(2, ids.poisoner, newer, 'spam')).toBe(200);
    const index = `${prefix}campaign-client:{${member(ids.poisoner)}}`;
    for (const key of signatureKeys(older)) expect(await redis.hexists(key, member(ids.poisoner))).toBe(0);
    for (const key of signatureKeys(newer)) expect(await redis.hexists(key, member(ids.poisoner))).toBe(1);
    expect(await redis.zcard(index)).toBe(2);
    expect(await report(0, ids.second, older, 'spam')).toBe(200);
    expect(codes(await checked(1, ids.protectedOnly, older))).not.toContain('EMAIL_CAMPAIGN');
  });

  it('when a report is dropped for FEEDBACK_MAX_REPORTS, it no longer counts in the campaign memory', async () => {
    const reported = `dropped.${run}@gmail.com`;
    expect(await report(3, capped, reported, 'spam')).toBe(200);
    expect(await report(0, ids.second, reported, 'spam')).toBe(200);
    expect(codes(await checked(1, ids.protectedOnly, reported))).toContain('EMAIL_CAMPAIGN');

    expect(await report(3, capped, `newer.${run}@gmail.com`, 'spam')).toBe(200);
    expect(await report(3, capped, `newest.${run}@gmail.com`, 'spam')).toBe(200);
    expect(codes(await checked(3, capped, reported))).not.toContain('EMAIL_REPORTED_SPAM');
    const [addressKey] = signatureKeys(reported);
    expect(await redis.hexists(addressKey!, member(capped))).toBe(0);
    expect(await redis.hexists(addressKey!, member(ids.second))).toBe(1);
    expect(codes(await checked(1, ids.protectedOnly, reported))).not.toContain('EMAIL_CAMPAIGN');
  });

  it('when a dropped report shares a signature with a kept one of the client, that signature still counts', async () => {
    const [first, second] = [`a@kept-${run}.example`, `b@kept-${run}.example`];
    const [firstAddress, sharedDomain] = signatureKeys(first);
    expect(await report(3, capped, first, 'spam')).toBe(200);
    expect(await report(3, capped, second, 'spam')).toBe(200);
    expect(await report(3, capped, `c@elsewhere-${run}.example`, 'spam')).toBe(200);
    expect(await redis.hexists(firstAddress!, member(capped))).toBe(0);
    expect(await redis.hexists(sharedDomain!, member(capped))).toBe(1);

    expect(await report(3, capped, `d@elsewhere-${run}.example`, 'spam')).toBe(200);
    expect(await redis.hexists(sharedDomain!, member(capped))).toBe(0);
  });

  it('stores only keyed hashes in the campaign memory: no address, domain or client id', async () => {
    const memory = await campaignMemory(redis, prefix);
    expect(memory.keys.length).toBeGreaterThan(0);
    expect(memory.notHashed).toEqual([]);
    // The first test's reported address: its key and the reporting client, as keyed hashes only.
    const key = `${prefix}campaign:{${hash(`email-address:${hash(`anna@${domain}`)}`)}}`;
    expect(Object.keys(await redis.hgetall(key))).toEqual([
      keyedHash(env.PRIVACY_HASH_KEY, `client\n${ids.first}`),
    ]);
    for (const secret of [domain, ...Object.values(ids)]) expect(memory.stored).not.toContain(secret);
  });

  it('when a client or an address is erased, the campaign memory forgets its reports, counted', async () => {
    const field = member(ids.second);
    const keys = await redis.keys(`${prefix}campaign:*`);
    let contributed = 0;
    for (const key of keys) contributed += await redis.hexists(key, field);
    expect(contributed).toBeGreaterThan(0);
    const byClient = await post(replicas[0]!.url, '/v1/erasure', 'gateway', { client_id: ids.second });
    expect(byClient.body).toMatchObject({ erased: { email_campaign_reports: contributed } });
    for (const key of keys) expect(await redis.hexists(key, field)).toBe(0);
    expect(await redis.exists(`${prefix}campaign-client:{${field}}`)).toBe(0);

    const key = `${prefix}campaign:{${hash(`email-address:${hash(`anna@${domain}`)}`)}}`;
    const reporters = await redis.hlen(key);
    expect(reporters).toBeGreaterThan(0);
    const byAddress = await post(replicas[1]!.url, '/v1/erasure', 'gateway', { email: `Anna+x@${domain}` });
    expect(byAddress.body).toMatchObject({ erased: { email_campaign_reports: reporters } });
    expect(await redis.exists(key)).toBe(0);
  });
});
