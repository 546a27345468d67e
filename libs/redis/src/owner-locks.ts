import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type Redis from 'ioredis';
import { REDIS } from './redis.module';

/** Gives the lock back; safe to call more than once. */
export type ReleaseLock = () => Promise<void>;

/** How long a Redis lock lives without renewal: a crashed holder frees it after this. */
export const OWNER_LOCK_TTL_MS = 30_000;

/** Deletes the key only if it still holds this holder's token. */
const RELEASE =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
/** Extends the key's life only if it still holds this holder's token. */
const RENEW =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

/**
 * One run at a time per owner for a kind of work (`scope`): in Redis when REDIS_URL is set, so
 * that every instance (and the command line) takes turns, in this process otherwise. A Redis lock
 * is renewed while held and expires OWNER_LOCK_TTL_MS after its holder stops.
 */
@Injectable()
export class OwnerLocks {
  private readonly local = new Set<string>();
  private readonly logger = new Logger(OwnerLocks.name);
  private warned = false;

  constructor(@Optional() @Inject(REDIS) private readonly redis: Redis | null = null) {}

  /** The lock of `scope` for `ownerId`, or null when someone holds it. Never waits for it. */
  async tryAcquire(scope: string, ownerId: number): Promise<ReleaseLock | null> {
    const key = `linkdock:lock:${scope}:${ownerId}`;
    if (this.local.has(key)) {
      return null;
    }
    this.local.add(key);
    let release: ReleaseLock = () => {
      this.local.delete(key);
      return Promise.resolve();
    };
    // While Redis is down this process's own lock stands alone (as the rate limit counts
    // in-process then): other instances may run one each, but nobody gets a 500.
    const remote = this.redis ? await this.acquireRemoteOrLocal(this.redis, key) : 'local';
    if (remote !== 'local') {
      if (remote === null) {
        this.local.delete(key);
        return null;
      }
      release = async () => {
        this.local.delete(key);
        await remote();
      };
    }
    let released = false;
    return async () => {
      if (!released) {
        released = true;
        await release();
      }
    };
  }

  private async acquireRemoteOrLocal(
    redis: Redis,
    key: string,
  ): Promise<ReleaseLock | null | 'local'> {
    // Not a check of `status`: just after start the client is still connecting, and a command
    // queued then is sent once it is up; during an outage it fails after the client's retries.
    try {
      const remote = await this.acquireRemote(redis, key);
      this.warned = false;
      return remote;
    } catch (error) {
      if (!this.warned) {
        this.logger.warn(`Redis owner locks failed, locking in this process: ${String(error)}`);
        this.warned = true;
      }
      return 'local';
    }
  }

  private async acquireRemote(redis: Redis, key: string): Promise<ReleaseLock | null> {
    const token = randomUUID();
    const set = await redis.set(key, token, 'PX', OWNER_LOCK_TTL_MS, 'NX');
    if (set !== 'OK') {
      return null;
    }
    const renewal = setInterval(() => {
      redis.eval(RENEW, 1, key, token, OWNER_LOCK_TTL_MS).catch(() => undefined);
    }, OWNER_LOCK_TTL_MS / 3);
    renewal.unref();
    return async () => {
      clearInterval(renewal);
      // A lock that cannot be given back expires on its own.
      await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
    };
  }
}
