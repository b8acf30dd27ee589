import { randomUUID } from 'node:crypto';
import { keysUnder, type ScanningClient } from './redis-keys';

/**
 * A campaign test's names (docs/design.md, Campaigns), unique to this run: its Redis prefix, the client ids,
 * and the environment both detectors take for campaigns (the privacy key, where client settings live).
 */
export function campaignTest(detector: 'email' | 'text') {
  const run = randomUUID().slice(0, 8);
  const prefix = `${detector}-campaign-test-${run}:`;
  return {
    run,
    prefix,
    ids: {
      first: `first-${run}`,
      second: `second-${run}`,
      poisoner: `poisoner-${run}`,
      protectedOnly: `protected-${run}`,
      outside: `outside-${run}`,
      capped: `capped-${run}`,
    },
    env: {
      PRIVACY_HASH_KEY: `campaign-test-key-${randomUUID()}`,
      CLIENT_SETTINGS_PREFIX: `${prefix}settings:`,
      CLIENT_SETTINGS_CHANNEL: `${prefix}settings`,
    },
  };
}

/**
 * Their settings: `first`, `second`, `poisoner` and `capped` (whose detector is started with small bounds)
 * share and protect, `protectedOnly` only protects, `outside` keeps the defaults (neither). The settings store
 * is closed afterwards.
 */
export async function storeCampaignSettings(
  settings: {
    put(clientId: string, settings: { campaigns: { share?: boolean; protect?: boolean } }): Promise<void>;
    close(): Promise<void>;
  },
  ids: ReturnType<typeof campaignTest>['ids'],
): Promise<void> {
  const both = { campaigns: { share: true, protect: true } };
  try {
    for (const id of [ids.first, ids.second, ids.poisoner, ids.capped]) await settings.put(id, both);
    await settings.put(ids.protectedOnly, { campaigns: { protect: true } });
  } finally {
    await settings.close();
  }
}

/** A keyed hash as stored: HMAC-SHA-256 in hex. */
const KEYED_HASH = /^[0-9a-f]{64}$/;

/**
 * What the campaign memory under `prefix` holds, by SCAN: its keys; the keys, fields and index members that
 * are not keyed hashes (`<prefix>campaign:{<64 hex digits>}`, `<prefix>campaign-client:{<64 hex digits>}`,
 * fields and members of 64 hex digits), of which there must be none (docs/design.md, Campaigns: only keyed
 * hashes are shared);
 * and all of it as one text, to search for what must not be there.
 */
export async function campaignMemory(
  redis: ScanningClient & {
    hgetall(key: string): Promise<Record<string, string>>;
    zrange(key: string, start: number, stop: number): Promise<string[]>;
  },
  prefix: string,
): Promise<{ keys: string[]; notHashed: string[]; stored: string }> {
  const keys = await keysUnder(redis, `${prefix}campaign:`);
  const hashedKey = new RegExp(`^${prefix}campaign:\\{[0-9a-f]{64}\\}$`);
  const notHashed: string[] = [];
  const stored: string[] = [];
  for (const key of keys) {
    const fields = await redis.hgetall(key);
    if (!hashedKey.test(key)) notHashed.push(key);
    notHashed.push(...Object.keys(fields).filter((field) => !KEYED_HASH.test(field)));
    stored.push(`${key} ${JSON.stringify(fields)}`);
  }
  // Each client's index of its signatures: a keyed hash of the client, members keyed hashes of signatures.
  const hashedIndex = new RegExp(`^${prefix}campaign-client:\\{[0-9a-f]{64}\\}$`);
  for (const key of await keysUnder(redis, `${prefix}campaign-client:`)) {
    const members = await redis.zrange(key, 0, -1);
    if (!hashedIndex.test(key)) notHashed.push(key);
    notHashed.push(...members.filter((member) => !KEYED_HASH.test(member)));
    stored.push(`${key} ${JSON.stringify(members)}`);
  }
  return { keys, notHashed, stored: stored.join('\n') };
}
