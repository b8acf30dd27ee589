import { clientSettingsSchema, type ClientSettings } from '@spam-check/contracts';
import { connectRedis, type Logger, type RedisConnection, type RedisTarget } from '@spam-check/service-kit';

/** Every process reads a client's settings from Redis at most once per this many milliseconds. */
const SETTINGS_CACHE_MS = 1000;
const MAX_CACHED = 10_000;

export interface ClientSettingsStore {
  /** The client's settings (`{}` when it has none), from a short cache; never throws (see below). */
  get(clientId: string): Promise<ClientSettings>;
  /** Stores the settings and tells every process to drop its cached copy. */
  put(clientId: string, settings: ClientSettings): Promise<void>;
  /** Deletes the client's settings; answers 1 when it had any, else 0. */
  remove(clientId: string): Promise<number>;
  /** Stored settings without the cache (the admin API reads what it writes); throws when Redis is down. */
  read(clientId: string): Promise<ClientSettings>;
  subscribed(): boolean;
  close(): Promise<void>;
}

/** The key prefix of the settings and the channel of their changes (CLIENT_SETTINGS_PREFIX and _CHANNEL). */
export interface SettingsLocation {
  prefix: string;
  channel: string;
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
function createClientSettingsStore(options: {
  commands: RedisConnection;
  subscription: RedisConnection;
  logger: Logger;
  location: SettingsLocation;
  cacheMs?: number;
}): ClientSettingsStore {
  const { commands, subscription, logger } = options;
  const { prefix, channel } = options.location;
  const redis = commands.client;
  const subscriber = subscription.client;
  const cacheMs = options.cacheMs ?? SETTINGS_CACHE_MS;
  const cache = new Map<string, { settings: ClientSettings; until: number }>();
  let listening = false;

  subscriber.on('message', (heard: string, clientId: string) => {
    if (heard === channel) cache.delete(clientId);
  });
  const subscribe = () => {
    cache.clear();
    subscriber.subscribe(channel).then(
      () => (listening = true),
      (error: unknown) => logger.warn({ err: error }, 'client settings: cannot subscribe'),
    );
  };
  subscriber.on('ready', subscribe);
  subscriber.on('close', () => (listening = false));
  if (subscriber.status === 'ready') subscribe();

  const read = async (clientId: string): Promise<ClientSettings> => {
    const raw = await redis.get(prefix + clientId);
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
      await redis.set(prefix + clientId, JSON.stringify(settings));
      cache.delete(clientId);
      await redis.publish(channel, clientId);
    },
    async remove(clientId) {
      const removed = await redis.del(prefix + clientId);
      cache.delete(clientId);
      await redis.publish(channel, clientId);
      return removed;
    },
    subscribed: () => listening,
    async close() {
      await commands.closer.close();
      await subscription.closer.close();
    },
  };
}

/**
 * The store over two Redis connections of its own from the service kit (commands, subscription): commands
 * time out after 500 ms, so that a check waiting for settings is not held up by a hung Redis.
 */
export async function connectClientSettings(
  target: RedisTarget,
  logger: Logger,
  location: SettingsLocation,
): Promise<ClientSettingsStore> {
  const [commands, subscription] = await Promise.all([
    connectRedis({ target, name: 'redis client settings', logger, timeoutMs: 500 }),
    connectRedis({ target, name: 'redis client settings subscriber', logger, subscriber: true }),
  ]);
  return createClientSettingsStore({ commands, subscription, logger, location });
}
