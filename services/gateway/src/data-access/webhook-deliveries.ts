import { WEBHOOK_DELIVERIES_KEPT, type WebhookDelivery } from '@spam-check/contracts';
import type { Redis } from 'ioredis';

/** A webhook's log outlives its last delivery by this long, then Redis drops it. */
const LOG_TTL_MS = 30 * 24 * 3600_000;

export interface WebhookDeliveryLog {
  /** Adds or updates a delivery; only the newest WEBHOOK_DELIVERIES_KEPT of the webhook are kept. */
  record(clientId: string, webhookId: string, delivery: WebhookDelivery): Promise<void>;
  /** The kept deliveries, newest first. */
  list(clientId: string, webhookId: string): Promise<WebhookDelivery[]>;
  remove(clientId: string, webhookIds: string[]): Promise<number>;
}

// One script, so that the entry, its place in the order and the trim of the oldest go together.
const RECORD = `
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1])
local old = redis.call('ZRANGE', KEYS[1], 0, -(tonumber(ARGV[4]) + 1))
if #old > 0 then
  redis.call('ZREM', KEYS[1], unpack(old))
  redis.call('HDEL', KEYS[2], unpack(old))
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return #old`;

/**
 * Each webhook's recent deliveries in Redis: a sorted set of delivery ids by event time and a hash of their
 * records, under one hash tag so that a cluster keeps them on one node.
 */
export function redisWebhookDeliveryLog(redis: Redis, prefix: string): WebhookDeliveryLog {
  const keysOf = (clientId: string, webhookId: string) => {
    const base = `${prefix}webhook-deliveries:{${clientId}/${webhookId}}`;
    return [`${base}:order`, `${base}:records`] as const;
  };
  return {
    async record(clientId, webhookId, delivery) {
      const [order, records] = keysOf(clientId, webhookId);
      await redis.eval(
        RECORD,
        2,
        order,
        records,
        delivery.id,
        Date.parse(delivery.created_at),
        JSON.stringify(delivery),
        WEBHOOK_DELIVERIES_KEPT,
        LOG_TTL_MS,
      );
    },
    async list(clientId, webhookId) {
      const [order, records] = keysOf(clientId, webhookId);
      const ids = await redis.zrevrange(order, 0, WEBHOOK_DELIVERIES_KEPT - 1);
      if (ids.length === 0) return [];
      const values = await redis.hmget(records, ...ids);
      return values.flatMap((value) => (value === null ? [] : [JSON.parse(value) as WebhookDelivery]));
    },
    async remove(clientId, webhookIds) {
      // One DEL per webhook: its two keys share a slot, two webhooks' keys may not.
      const removed = await Promise.all(
        webhookIds.map((webhookId) => redis.del(...keysOf(clientId, webhookId))),
      );
      return removed.reduce((sum, count) => sum + count, 0);
    },
  };
}
