import { WEBHOOK_DELIVERIES_KEPT, type WebhookDelivery } from '@spam-check/contracts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from 'ioredis';
import type { RedisClient } from '@spam-check/service-kit';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** `webhook-deliveries-record.lua`: answers how many old deliveries were trimmed. */
    spamCheckWebhookDeliveryRecord(
      order: string,
      records: string,
      deliveryId: string,
      createdAtMs: number,
      record: string,
      kept: number,
      ttlMs: number,
    ): Result<number, Context>;
  }
}

/** A webhook's log outlives its last delivery by this long, then Redis drops it. */
const LOG_TTL_MS = 30 * 24 * 3600_000;

export interface WebhookDeliveryLog {
  /** Adds or updates a delivery; only the newest WEBHOOK_DELIVERIES_KEPT of the webhook are kept. */
  record(clientId: string, webhookId: string, delivery: WebhookDelivery): Promise<void>;
  /** The kept deliveries, newest first. */
  list(clientId: string, webhookId: string): Promise<WebhookDelivery[]>;
  remove(clientId: string, webhookIds: string[]): Promise<number>;
}

/** Loaded by `redisWebhookDeliveryLog`; the build copies it beside the compiled file. */
const RECORD_SCRIPT = join(__dirname, 'webhook-deliveries-record.lua');

/**
 * Each webhook's recent deliveries in Redis: a sorted set of delivery ids by event time and a hash of their
 * records, under one hash tag so that a cluster keeps them on one node.
 */
export function redisWebhookDeliveryLog(redis: RedisClient, prefix: string): WebhookDeliveryLog {
  const keysOf = (clientId: string, webhookId: string) => {
    const base = `${prefix}webhook-deliveries:{${clientId}/${webhookId}}`;
    return [`${base}:order`, `${base}:records`] as const;
  };
  redis.defineCommand('spamCheckWebhookDeliveryRecord', {
    numberOfKeys: 2,
    lua: readFileSync(RECORD_SCRIPT, 'utf8'),
  });
  return {
    async record(clientId, webhookId, delivery) {
      const [order, records] = keysOf(clientId, webhookId);
      await redis.spamCheckWebhookDeliveryRecord(
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
