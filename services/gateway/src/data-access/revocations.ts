import { revocationMessageSchema } from '@spam-check/contracts';
import type { Logger } from '@spam-check/service-kit';
import type { RedisClient } from '@spam-check/service-kit';
import type { TokenIntrospector } from './introspection';

/**
 * Evicts revoked tokens from the introspection cache as soon as the auth service announces them. Messages
 * published while the subscription was down are lost, so after every reconnection the whole cache is dropped:
 * a revoked token cannot outlive an outage in the cache. `subscribed()` feeds readiness.
 */
export function subscribeToRevocations(options: {
  subscriber: RedisClient;
  channel: string;
  introspector: TokenIntrospector;
  logger: Logger;
}): { subscribed: () => boolean } {
  const { subscriber, introspector, logger } = options;
  let subscribed = false;
  let connectedBefore = false;
  const subscribe = () => {
    if (connectedBefore) {
      introspector.evictAll();
      logger.warn('revocation channel reconnected; token cache cleared');
    }
    connectedBefore = true;
    subscriber.subscribe(options.channel).then(
      () => {
        subscribed = true;
      },
      (error: unknown) => logger.warn({ err: error }, 'subscribing to the revocation channel failed'),
    );
  };
  subscriber.on('ready', subscribe);
  if (subscriber.status === 'ready') subscribe();
  subscriber.on('close', () => {
    subscribed = false;
  });
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== options.channel) return;
    let parsed;
    try {
      parsed = revocationMessageSchema.safeParse(JSON.parse(message));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) {
      logger.warn({ channel }, 'ignored a malformed revocation message');
      return;
    }
    introspector.evict(parsed.data.access_token_sha256);
  });
  return { subscribed: () => subscribed };
}
