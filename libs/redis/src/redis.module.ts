import { DynamicModule, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';

/** The shared ioredis client, or null when REDIS_URL is unset (everything then stays in-process). */
export const REDIS = Symbol('REDIS');

export function createRedisClient(url: string): Redis {
  const logger = new Logger('Redis');
  const client = new Redis(url, {
    maxRetriesPerRequest: 2,
    connectTimeout: 5000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    // How long a closing socket may take before it is destroyed. Closing while Redis is down
    // leaves this timer on a socket that has closed already (ioredis waits for a second 'close'),
    // and the default 2 s kept a stopped app's process (a test worker) alive for that long.
    disconnectTimeout: 100,
  });
  let reported = false;
  client.on('error', (err: Error) => {
    if (!reported) {
      logger.warn(`Redis is unreachable: ${err.message}`);
      reported = true;
    }
  });
  client.on('ready', () => {
    reported = false;
  });
  return client;
}

/**
 * Resolves true once the client is connected, false after `ms` without it. A short-lived process
 * (the command line) waits for it before anything it does publishes: publishing is skipped while
 * the client is not ready (publishQuietly).
 */
export function redisReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    redis.on('ready', onReady);
  });
}

@Module({})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis | null) {}

  static forRoot(url: string | null): DynamicModule {
    return {
      module: RedisModule,
      global: true,
      providers: [{ provide: REDIS, useFactory: () => (url ? createRedisClient(url) : null) }],
      exports: [REDIS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis && this.redis.status !== 'end') {
      await this.redis.quit().catch(() => this.redis?.disconnect());
    }
  }
}
