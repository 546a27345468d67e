import { DynamicModule, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { maskUrl } from '@app/config';

/** The shared ioredis client, or null when REDIS_URL is unset (everything then stays in-process). */
export const REDIS = Symbol('REDIS');

/**
 * A client of REDIS_URL that reconnects by itself. It logs each outage once; `reportOutages`
 * false leaves that to another client of the same process (the visit writer thread's client).
 */
export function createRedisClient(url: string, reportOutages = true): Redis {
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
  // Once per outage: at the first error, then again only after the connection was back.
  let reported = !reportOutages;
  client.on('error', (err: Error) => {
    if (!reported) {
      logger.warn(`Redis (REDIS_URL ${maskUrl(url)}) is unreachable: ${err.message}`);
      reported = true;
    }
  });
  client.on('ready', () => {
    reported = !reportOutages;
  });
  return client;
}

/**
 * A second connection to the same Redis, for subscribing. Its commands wait for a connection
 * however long that takes: a SUBSCRIBE that gave up while Redis was down would never be sent
 * again (ioredis subscribes again only to the channels it was subscribed to). The client it
 * copies reports outages: without a listener of its own, ioredis would print "Unhandled error
 * event" and a stack at every attempt to reconnect.
 */
export function duplicateRedisClient(redis: Redis): Redis {
  const copy = redis.duplicate({ maxRetriesPerRequest: null });
  copy.on('error', () => undefined);
  return copy;
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

/**
 * Closes a client: QUIT when connected (what was sent is answered first), otherwise at once. A
 * QUIT while Redis is down would wait for a connection, for ever on a subscriber
 * (duplicateRedisClient), and hold up the process's shutdown.
 */
export async function closeRedisClient(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  await redis.quit().catch(() => redis.disconnect());
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
    if (this.redis) await closeRedisClient(this.redis);
  }
}
