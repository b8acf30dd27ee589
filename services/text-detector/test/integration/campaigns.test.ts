import { connectClientSettings } from '@spam-check/client-settings';
import { textResultSchema, type TextResult } from '@spam-check/contracts';
import { createLogger } from '@spam-check/service-kit';
import {
  campaignMemory,
  campaignTest,
  redisUrl,
  removeKeysUnder,
  reportFeedback,
  storeCampaignSettings,
} from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { check, startDetector, type StartedDetector, startRpcDetector, type RpcDetector } from './helpers';

// Campaigns shared between clients (docs/design.md, Campaigns) on two replicas of the text detector and its
// RPC consumer, one Redis: what sharing clients report counts for protecting clients only once enough
// distinct clients reported it, and only keyed hashes are stored.
const { run, prefix, ids, env: campaignEnv } = campaignTest('text');
const env = {
  REDIS_URL: redisUrl(),
  TEXT_FEEDBACK_PREFIX: prefix,
  TEXT_RPC_QUEUE: `test.text-campaigns.${run}`,
  // The poisoner's thousand reports at the pace of a bulk import, not of one moderator.
  TEXT_FEEDBACK_REPORTS_PER_SECOND: '500',
  ...campaignEnv,
};

/** One campaign, other names, dates and links each time (near-duplicates of each other). */
const campaign = (name: string, day: string, link: string) => ({
  title: 'Unterlagen',
  body:
    `Hallo ${name}, ich habe dir die Unterlagen für das Treffen am ${day} hochgeladen. Schau bitte ` +
    `unter ${link} nach und gib mir kurz Bescheid, ob alles passt. Viele Grüße aus dem Büro`,
});
const REPORTED = [
  campaign('Anna', 'Montag', 'https://files-a.example/x1'),
  campaign('Bernd', 'Dienstag', 'https://files-b.example/y2'),
];
const UNSEEN = campaign('Carla', 'Freitag', 'https://files-c.example/z3');
/** Another campaign, for the client whose replica keeps one report per client. */
const minutes = (name: string, link: string) => ({
  title: 'Protokoll',
  body:
    `Hallo ${name}, das Protokoll der letzten Sitzung liegt jetzt unter ${link} bereit. Lies es bitte ` +
    `bis Ende der Woche und schreib mir deine Anmerkungen, dann verschicke ich es an alle. Danke und bis bald`,
});
const capped = ids.capped;

const codes = (result: TextResult) => result.reasons.map((reason) => reason.code);

/**
 * A report, sent again while the detector answers 503 (its Redis deadline passed on a loaded machine), as a
 * client does; answers the final status.
 */
async function reportAccepted(url: string, client: string, body: object): Promise<number> {
  for (;;) {
    const { status } = await reportFeedback(url, client, body);
    if (status !== 503) return status;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function checked(url: string, client: string, body: object): Promise<TextResult> {
  const response = await check(url, body, { 'x-client-id': client });
  expect(response.status).toBe(200);
  return textResultSchema.parse(response.body);
}

describe('campaigns shared between clients (two replicas, Redis, RabbitMQ)', () => {
  const logger = createLogger({ service: 'text-detector-test', level: 'silent' });
  let redis: Redis;
  let replicas: StartedDetector[] = [];
  let rpc: RpcDetector;

  beforeAll(async () => {
    redis = new Redis(redisUrl());
    const settings = await connectClientSettings({ kind: 'single', url: redisUrl() }, logger, {
      prefix: env.CLIENT_SETTINGS_PREFIX,
      channel: env.CLIENT_SETTINGS_CHANNEL,
    });
    await storeCampaignSettings(settings, ids);
    replicas = await Promise.all([
      startDetector(env),
      startDetector(env),
      startDetector({ ...env, FEEDBACK_MAX_REPORTS: '1' }),
    ]);
    rpc = await startRpcDetector(env);
  }, 60_000);

  afterAll(async () => {
    await rpc.stop();
    await Promise.all(replicas.map((replica) => replica.stop()));
    await removeKeysUnder(redis, prefix);
    redis.disconnect();
  });

  const overRpc = async (client: string, body: object) =>
    textResultSchema.parse(
      await rpc.client.call(env.TEXT_RPC_QUEUE, body, {
        timeoutMs: 10_000,
        headers: { 'x-client-id': client },
      }),
    );

  it('when one sharing client reports a campaign, nobody else sees a change; when a second one does, protecting clients do, on every replica and over RPC', async () => {
    const [one, two] = replicas as [StartedDetector, StartedDetector];
    const before = await checked(one.url, ids.protectedOnly, UNSEEN);
    expect(codes(before)).not.toContain('TEXT_CAMPAIGN');
    expect(before.verdict).toBe('ham');

    expect((await reportFeedback(one.url, ids.first, { ...REPORTED[0], label: 'spam' })).status).toBe(200);
    const afterOne = await checked(two.url, ids.protectedOnly, UNSEEN);
    expect(codes(afterOne)).not.toContain('TEXT_CAMPAIGN');
    expect(afterOne.score).toBe(before.score);

    expect((await reportFeedback(two.url, ids.second, { ...REPORTED[1], label: 'spam' })).status).toBe(200);
    for (const replica of replicas) {
      const flagged = await checked(replica.url, ids.protectedOnly, UNSEEN);
      expect(codes(flagged)[0]).toBe('TEXT_CAMPAIGN');
      expect(flagged.reasons[0]?.message).toMatch(/2/);
      expect(['suspicious', 'spam']).toContain(flagged.verdict);
    }
    const viaRpc = await overRpc(ids.protectedOnly, UNSEEN);
    expect(codes(viaRpc)).toContain('TEXT_CAMPAIGN');
    expect(['suspicious', 'spam']).toContain(viaRpc.verdict);

    // A client that does not protect sees no change.
    const outside = await checked(two.url, ids.outside, UNSEEN);
    expect(codes(outside)).not.toContain('TEXT_CAMPAIGN');
    expect(outside.score).toBe(before.score);
    expect(codes(await overRpc(ids.outside, UNSEEN))).not.toContain('TEXT_CAMPAIGN');

    // A ham report withdraws the reporter's own contribution: one client left, below the minimum.
    expect((await reportFeedback(one.url, ids.second, { ...REPORTED[1], label: 'ham' })).status).toBe(200);
    const withdrawn = await checked(one.url, ids.protectedOnly, UNSEEN);
    expect(codes(withdrawn)).not.toContain('TEXT_CAMPAIGN');
    expect(withdrawn.score).toBe(before.score);
  }, 60_000);

  it('when a report is dropped for FEEDBACK_MAX_REPORTS, it no longer counts in the campaign memory', async () => {
    const [one, , keepingOne] = replicas as [StartedDetector, StartedDetector, StartedDetector];
    const spam = (text: object) => ({ ...text, label: 'spam' });
    const dropped = minutes('Dora', 'https://notes-d.example/a1');
    expect((await reportFeedback(keepingOne.url, capped, spam(dropped))).status).toBe(200);
    expect(
      (await reportFeedback(one.url, ids.first, spam(minutes('Emil', 'https://notes-e.example/b2')))).status,
    ).toBe(200);
    const unseen = minutes('Fritz', 'https://notes-f.example/c3');
    expect(codes(await checked(one.url, ids.protectedOnly, unseen))).toContain('TEXT_CAMPAIGN');

    const recipe = {
      title: 'Rezept',
      body: 'Für den Kuchen brauchst du Mehl, Zucker, Eier und Butter; backe ihn eine Stunde und lass ihn gut auskühlen.',
    };
    expect((await reportFeedback(keepingOne.url, capped, spam(recipe))).status).toBe(200);
    expect(codes(await checked(keepingOne.url, capped, dropped))).not.toContain('TEXT_REPORTED_SPAM');
    expect(codes(await checked(one.url, ids.protectedOnly, unseen))).not.toContain('TEXT_CAMPAIGN');
  });

  it('when one client reports a thousand ham texts as spam, no other client sees any change', async () => {
    const hams = Array.from({ length: 1000 }, (_, i) => ({
      title: `Vereinsnachricht ${i}`,
      body:
        `Liebe Mitglieder, das Treffen Nummer ${i} der Gruppe ${(i * 7919) % 1000} findet wie geplant ` +
        `statt. Thema ${i % 13}: ${['Gartenpflege', 'Kassenbericht', 'Sommerfest', 'Wanderung'][i % 4]}.`,
    }));
    const sample = hams.filter((_, i) => i % 100 === 0);
    const before = await Promise.all(
      sample.map((text) => checked(replicas[0]!.url, ids.protectedOnly, text)),
    );
    for (let i = 0; i < hams.length; i += 4)
      await Promise.all(
        hams
          .slice(i, i + 4)
          .map(async (text, k) =>
            expect(
              await reportAccepted(replicas[(i + k) % 2]!.url, ids.poisoner, { ...text, label: 'spam' }),
            ).toBe(200),
          ),
      );
    const after = await Promise.all(sample.map((text) => checked(replicas[1]!.url, ids.protectedOnly, text)));
    after.forEach((result, i) => {
      expect(codes(result)).not.toContain('TEXT_CAMPAIGN');
      expect(result.score).toBe(before[i]!.score);
    });
    // The poisoner's own checks do follow its reports.
    expect(codes(await checked(replicas[1]!.url, ids.poisoner, sample[0]!))).toContain('TEXT_REPORTED_SPAM');
  }, 300_000);

  it('stores only keyed hashes in the campaign memory: no text, link, name or client id', async () => {
    const memory = await campaignMemory(redis, prefix);
    expect(memory.keys.length).toBeGreaterThan(0);
    expect(memory.notHashed).toEqual([]);
    for (const secret of [...Object.values(ids), 'Unterlagen', 'files-a.example', 'Anna'])
      expect(memory.stored).not.toContain(secret);
  });
});
