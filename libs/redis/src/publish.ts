import type { Logger } from '@nestjs/common';
import type Redis from 'ioredis';

/**
 * Publishes `message` as JSON when the client is connected; otherwise, or when publishing fails,
 * only logs: a missed invalidation is made good by the caches' own expiry and by their clearing
 * when the subscription comes back.
 */
export function publishQuietly(
  redis: Redis | null,
  channel: string,
  message: unknown,
  logger: Pick<Logger, 'warn'>,
  what: string,
): void {
  if (redis && redis.status === 'ready') {
    redis.publish(channel, JSON.stringify(message)).catch((err: unknown) => {
      logger.warn(`Cannot publish ${what}: ${String(err)}`);
    });
  }
}
