import type { Redis } from 'ioredis';
import { keyedHash } from './keyed-hash';

/**
 * The deployment's campaign memory (docs/design.md, Campaigns), shared by the replicas of a detector: for
 * each signature (what a detector derives from a reported text or address), the set of distinct sharing
 * clients that reported it as spam. The rules:
 * - only keyed hashes are kept: of the signature (the key) and of the client (the field), under the
 *   deployment's PRIVACY_HASH_KEY; never a text, an address, a domain or a client id in clear;
 * - a spam report adds the client to each of its signatures, a ham report removes it again (a client withdraws
 *   only its own contribution), so replaying the same reports gives the same memory;
 * - a signature's set expires `ttlSeconds` after its last spam report;
 * - every command touches one key (one signature), so the memory runs on Redis Cluster too: a signature's key
 *   carries its hash as the hash tag, and a check reads one HLEN per signature, never a cross-key command.
 */
export interface CampaignMemory {
  report(client: string, signatures: readonly string[], label: 'spam' | 'ham'): Promise<void>;
  /** How many distinct sharing clients reported each signature, in the order given. */
  reporters(signatures: readonly string[]): Promise<number[]>;
  /** Erasure: removes the client's contribution from every signature; answers how many it had. */
  eraseClient(client: string): Promise<number>;
  /** Erasure: deletes the memory of these signatures; answers how many clients' reports that removed. */
  eraseSignatures(signatures: readonly string[]): Promise<number>;
}

export interface CampaignMemoryOptions {
  /** The deployment's secret for keyed hashes (PRIVACY_HASH_KEY). */
  key: string;
  ttlSeconds: number;
}

export function redisCampaignMemory(
  redis: Redis,
  prefix: string,
  options: CampaignMemoryOptions,
): CampaignMemory {
  const keyOf = (signature: string) => `${prefix}campaign:{${keyedHash(options.key, signature)}}`;
  const member = (client: string) => keyedHash(options.key, `client\n${client}`);
  return {
    async report(client, signatures, label) {
      const field = member(client);
      await Promise.all(
        signatures.map((signature) => {
          const key = keyOf(signature);
          return label === 'spam'
            ? redis.multi().hset(key, field, Date.now()).expire(key, options.ttlSeconds).exec()
            : redis.hdel(key, field);
        }),
      );
    },
    reporters: (signatures) => Promise.all(signatures.map((signature) => redis.hlen(keyOf(signature)))),
    async eraseClient(client) {
      const field = member(client);
      let erased = 0;
      const stream = redis.scanStream({ match: `${prefix}campaign:{*}`, count: 1000 });
      for await (const batch of stream as AsyncIterable<string[]>)
        for (const key of batch) erased += await redis.hdel(key, field);
      return erased;
    },
    async eraseSignatures(signatures) {
      let erased = 0;
      for (const signature of signatures) {
        const key = keyOf(signature);
        const results = await redis.multi().hlen(key).del(key).exec();
        erased += Number(results?.[0]?.[1] ?? 0);
      }
      return erased;
    },
  };
}

/** Embedded mode: the same memory in this process (one replica; nothing is shared beyond it). */
export function memoryCampaignMemory(options: CampaignMemoryOptions, now = () => Date.now()): CampaignMemory {
  const sets = new Map<string, { clients: Set<string>; expires: number }>();
  const keyOf = (signature: string) => keyedHash(options.key, signature);
  return {
    report(client, signatures, label) {
      const field = keyedHash(options.key, `client\n${client}`);
      for (const signature of signatures) {
        const key = keyOf(signature);
        const entry = sets.get(key);
        if (label === 'ham') entry?.clients.delete(field);
        else if (entry) {
          entry.clients.add(field);
          entry.expires = now() + options.ttlSeconds * 1000;
        } else sets.set(key, { clients: new Set([field]), expires: now() + options.ttlSeconds * 1000 });
      }
      return Promise.resolve();
    },
    reporters(signatures) {
      return Promise.resolve(
        signatures.map((signature) => {
          const entry = sets.get(keyOf(signature));
          return entry && entry.expires > now() ? entry.clients.size : 0;
        }),
      );
    },
    eraseClient(client) {
      const field = keyedHash(options.key, `client\n${client}`);
      let erased = 0;
      for (const entry of sets.values()) if (entry.clients.delete(field)) erased++;
      return Promise.resolve(erased);
    },
    eraseSignatures(signatures) {
      let erased = 0;
      for (const signature of signatures) {
        const key = keyOf(signature);
        erased += sets.get(key)?.clients.size ?? 0;
        sets.delete(key);
      }
      return Promise.resolve(erased);
    },
  };
}
