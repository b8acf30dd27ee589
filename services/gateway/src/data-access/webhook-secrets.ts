import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { generateWebhookSecret } from '@spam-check/contracts/webhook-signature';
import type { RedisClient } from '@spam-check/service-kit';

/** How long a rotated secret still signs alongside its successor. */
const ROTATION_GRACE_MS = 24 * 3600_000;

interface StoredSecrets {
  current: string;
  previous?: string;
  previous_until?: number;
}

export interface WebhookSecrets {
  /** A new secret for the webhook (replacing any), to be shown once. */
  create(clientId: string, webhookId: string): Promise<string>;
  /** A new secret; the old one keeps signing until the date answered. */
  rotate(clientId: string, webhookId: string, now: Date): Promise<{ secret: string; previousUntil: Date }>;
  /** The secrets that sign a delivery now: the current one, and a rotated one within its grace period. */
  signing(clientId: string, webhookId: string, now: Date): Promise<string[]>;
  remove(clientId: string, webhookIds: string[]): Promise<void>;
  eraseClient(clientId: string): Promise<number>;
}

/**
 * Signing secrets in Redis, one hash per client (webhook id → sealed value), sealed with AES-256-GCM under a
 * key derived from WEBHOOK_SECRET_KEY: a dump of Redis alone does not give them away. The client and
 * webhook ids are the associated data, so a sealed value copied to another webhook does not open.
 */
export function redisWebhookSecrets(redis: RedisClient, prefix: string, secretKey: string): WebhookSecrets {
  const key = Buffer.from(hkdfSync('sha256', secretKey, 'spam-check', 'webhook signing secrets', 32));
  const keyOf = (clientId: string) => `${prefix}webhook-secrets:${clientId}`;
  const seal = (clientId: string, webhookId: string, value: StoredSecrets): string => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(`${clientId}/${webhookId}`));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  };
  const open = (clientId: string, webhookId: string, stored: string): StoredSecrets => {
    const bytes = Buffer.from(stored, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12))
      .setAAD(Buffer.from(`${clientId}/${webhookId}`))
      .setAuthTag(bytes.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as StoredSecrets;
  };
  const read = async (clientId: string, webhookId: string): Promise<StoredSecrets | undefined> => {
    const stored = await redis.hget(keyOf(clientId), webhookId);
    return stored === null ? undefined : open(clientId, webhookId, stored);
  };
  const write = (clientId: string, webhookId: string, value: StoredSecrets) =>
    redis.hset(keyOf(clientId), webhookId, seal(clientId, webhookId, value));

  return {
    async create(clientId, webhookId) {
      const secret = generateWebhookSecret();
      await write(clientId, webhookId, { current: secret });
      return secret;
    },
    async rotate(clientId, webhookId, now) {
      const old = await read(clientId, webhookId);
      const secret = generateWebhookSecret();
      const previousUntil = new Date(now.getTime() + ROTATION_GRACE_MS);
      await write(
        clientId,
        webhookId,
        old
          ? { current: secret, previous: old.current, previous_until: previousUntil.getTime() }
          : { current: secret },
      );
      return { secret, previousUntil };
    },
    async signing(clientId, webhookId, now) {
      const stored = await read(clientId, webhookId);
      if (!stored) return [];
      const previous =
        stored.previous !== undefined && (stored.previous_until ?? 0) > now.getTime()
          ? [stored.previous]
          : [];
      return [stored.current, ...previous];
    },
    async remove(clientId, webhookIds) {
      if (webhookIds.length > 0) await redis.hdel(keyOf(clientId), ...webhookIds);
    },
    async eraseClient(clientId) {
      return redis.del(keyOf(clientId));
    },
  };
}

/** How long the worker reuses the secrets it read for a webhook (a rotation's old secret signs 24 h anyway). */
const SIGNING_CACHE_MS = 1000;
const SIGNING_CACHE_MAX = 10_000;

/** `signing` read at most once per SIGNING_CACHE_MS per webhook: one Redis read and decryption less per delivery. */
export function recentSigningSecrets(secrets: WebhookSecrets): Pick<WebhookSecrets, 'signing'> {
  const cache = new Map<string, { secrets: string[]; until: number }>();
  return {
    async signing(clientId, webhookId, now) {
      const key = `${clientId}/${webhookId}`;
      const cached = cache.get(key);
      if (cached && cached.until > now.getTime()) return cached.secrets;
      const read = await secrets.signing(clientId, webhookId, now);
      if (cache.size >= SIGNING_CACHE_MAX) cache.clear();
      cache.set(key, { secrets: read, until: now.getTime() + SIGNING_CACHE_MS });
      return read;
    },
  };
}
