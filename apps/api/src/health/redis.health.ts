import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import type Redis from 'ioredis';
import { REDIS } from '@app/redis';

@Injectable()
export class RedisHealthIndicator {
  constructor(
    @Inject(REDIS) private readonly redis: Redis | null,
    private readonly health: HealthIndicatorService,
  ) {}

  get configured(): boolean {
    return this.redis !== null;
  }

  async check(key: string): Promise<HealthIndicatorResult> {
    const indicator = this.health.check(key);
    try {
      await Promise.race([
        this.redis?.ping(),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('timeout after 1500 ms')), 1500).unref(),
        ),
      ]);
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : String(error) });
    }
  }
}
