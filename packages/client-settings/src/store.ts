import { clientSettingsSchema, type ClientSettings } from '@spam-check/contracts';
import { Redis } from 'ioredis';

/** Every process reads a client's settings from Redis at most once per this many milliseconds. */
export const SETTINGS_CACHE_MS = 1000;
const KEY_PREFIX = 'spam-check:client-settings:';
const CHANNEL = 'spam-check:client-settings';
const MAX_CACHED = 10_000;

export interface SettingsLogger {
  warn(details: object, message: string): void;
}

export interface ClientSettingsStore {
  /** The client's settings (`{}` when it has none), from a short cache; never throws (see below). */
  get(clientId: string): Promise<ClientSettings>;
  /** Stores the settings and tells every process to drop its cached copy. */
  put(clientId: string, settings: ClientSettings): Promise<void>;
  remove(clientId: string): Promise<void>;
  /** Stored settings without the cache (the admin API reads what it writes); throws when Redis is down. */
  read(clientId: string): Promise<ClientSettings>;
  subscribed(): boolean;
  close(): Promise<void>;
}

const NONE: ClientSettings = Object.freeze({});

/**
 * Per-client settings in Redis (one JSON value per client), shared by the gateway and the detectors. A
 * change holds on every process within SETTINGS_CACHE_MS: cached copies live at most that long, and a write
 * publishes the client id so that subscribed processes drop theirs at once (a resubscription after a lost
 * connection clears the whole cache, since messages may have been missed meanwhile).
 *
 * A check never fails for want of settings: when Redis cannot answer (commands time out after 500 ms), the
 * last copy read is used, else the operator defaults, for the next SETTINGS_CACHE_MS too, and a warning is
 * logged. A cached value keeps its identity, so callers may memoise
 * what they derive from it (compiled lists) in a WeakMap.
 */
export function createClientSettingsStore(options: {
  redis: Redis;
  subscriber: Redis;
  logger: SettingsLogger;
  cacheMs?: number;
}): ClientSettingsStore {
  const { redis, subscriber, logger } = options;
  const cacheMs = options.cacheMs ?? SETTINGS_CACHE_MS;
  const cache = new Map<string, { settings: ClientSettings; until: number }>();
  let listening = false;

  subscriber.on('message', (channel: string, clientId: string) => {
    if (channel === CHANNEL) cache.delete(clientId);
  });
  subscriber.on('ready', () => {
    cache.clear();
    subscriber.subscribe(CHANNEL).then(
      () => (listening = true),
      (error: unknown) => logger.warn({ err: error }, 'client settings: cannot subscribe'),
    );
  });
  subscriber.on('close', () => (listening = false));

  const read = async (clientId: string): Promise<ClientSettings> => {
    const raw = await redis.get(KEY_PREFIX + clientId);
    if (raw === null) return NONE;
    const parsed = clientSettingsSchema.safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data;
    logger.warn({ client_id: clientId }, 'client settings: stored value is invalid; operator defaults used');
    return NONE;
  };

  return {
    read,
    async get(clientId) {
      const cached = cache.get(clientId);
      if (cached && cached.until > Date.now()) return cached.settings;
      try {
        const settings = await read(clientId);
        if (cache.size >= MAX_CACHED) cache.clear();
        cache.set(clientId, { settings, until: Date.now() + cacheMs });
        return settings;
      } catch (error) {
        logger.warn(
          { err: error, client_id: clientId },
          'client settings unavailable: using the last copy read, else the operator defaults',
        );
        // Kept like a value read, so that an unreachable Redis costs one wait per client and period, not
        // one per check.
        const fallback = cached?.settings ?? NONE;
        cache.set(clientId, { settings: fallback, until: Date.now() + cacheMs });
        return fallback;
      }
    },
    async put(clientId, settings) {
      await redis.set(KEY_PREFIX + clientId, JSON.stringify(settings));
      cache.delete(clientId);
      await redis.publish(CHANNEL, clientId);
    },
    async remove(clientId) {
      await redis.del(KEY_PREFIX + clientId);
      cache.delete(clientId);
      await redis.publish(CHANNEL, clientId);
    },
    subscribed: () => listening,
    async close() {
      for (const client of [redis, subscriber])
        if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
        else client.disconnect();
    },
  };
}

/** Its own two Redis connections (commands and subscription) for a service that has no other use of Redis. */
export function connectClientSettings(url: string, logger: SettingsLogger): ClientSettingsStore {
  const options = { maxRetriesPerRequest: 1, commandTimeout: 500, connectTimeout: 2000 };
  const redis = new Redis(url, options);
  const subscriber = new Redis(url, { ...options, commandTimeout: undefined });
  for (const client of [redis, subscriber])
    client.on('error', (error: Error) => logger.warn({ err: error }, 'client settings: redis error'));
  return createClientSettingsStore({ redis, subscriber, logger });
}
