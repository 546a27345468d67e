import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { CounterThrottlerStorage } from './counter-throttler.storage';

type Record = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Rate-limit counters in Redis, shared by every instance. When Redis fails, counting goes on in
 * this process instead of failing the API request: an outage of the limiter must not become an
 * outage of the API.
 */
export class FallbackThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  private readonly shared: ThrottlerStorageRedisService;
  private readonly local = new CounterThrottlerStorage();
  private warned = false;

  constructor(private readonly redis: Redis) {
    this.shared = new ThrottlerStorageRedisService(redis);
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<Record> {
    // While disconnected, do not queue behind ioredis' reconnection attempts: count locally at once.
    if (this.redis.status !== 'ready') {
      return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
    }
    try {
      const record = await this.shared.increment(key, ttl, limit, blockDuration, throttlerName);
      this.warned = false;
      return record;
    } catch (error) {
      if (!this.warned) {
        this.logger.warn(`Redis rate-limit storage failed, counting in-process: ${String(error)}`);
        this.warned = true;
      }
      return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }

  onApplicationShutdown(): void {
    this.local.onApplicationShutdown();
  }
}
