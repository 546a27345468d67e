import { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

/** What `increment` answers (the library does not export the interface's name). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** One key's fixed window: hits counted since it opened, and until when the key is refused. */
interface Window {
  hits: number;
  expiresAt: number;
  blockedUntil: number;
}

/** How many keys are kept at most: past it, the oldest window is forgotten (its count restarts). */
export const COUNTER_STORAGE_MAX_KEYS = 100_000;
/** How often windows that ended (and blocks that ran out) are removed. */
export const COUNTER_STORAGE_SWEEP_MS = 60_000;

/**
 * Rate-limit counters in this process: a fixed window per key, a count and an end, so a hit costs
 * one Map lookup whatever the budget. @nestjs/throttler's own in-memory storage keeps a timestamp
 * per hit and filters that array on every request, which is a sliding window costing O(limit)
 * per hit and per key's memory. The rules are those of the Redis storage
 * (@nest-lab/throttler-storage-redis), so that a deployment counts the same with and without
 * Redis, and when FallbackThrottlerStorage falls back to this one:
 *
 * - the first hit opens a window of `ttl` ms; every hit in it counts, blocked or not;
 * - the hit that passes `limit` blocks the key for `blockDuration` ms; a block outlives the window;
 * - times are answered in whole seconds, rounded up.
 *
 * The map is bounded (COUNTER_STORAGE_MAX_KEYS) and swept every minute, so a flood of distinct
 * addresses cannot grow it without end; windows are re-inserted when they reopen, so the oldest
 * entry (the one forgotten first) is the one that opened longest ago.
 */
export class CounterThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly windows = new Map<string, Window>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly maxKeys = COUNTER_STORAGE_MAX_KEYS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The number of keys held (tests). */
  get size(): number {
    return this.windows.size;
  }

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    return Promise.resolve(this.hit(key, ttl, limit, blockDuration, throttlerName));
  }

  /** `increment` without the promise. */
  hit(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): ThrottlerStorageRecord {
    const now = this.now();
    const id = `${throttlerName}\u0000${key}`;
    let window = this.windows.get(id);
    if (window === undefined || (window.expiresAt <= now && window.blockedUntil <= now)) {
      if (window === undefined) {
        this.makeRoom();
        this.startSweeping();
      } else {
        this.windows.delete(id);
      }
      window = { hits: 0, expiresAt: now + ttl, blockedUntil: 0 };
      this.windows.set(id, window);
    } else if (window.expiresAt <= now) {
      // Still blocked after its window ended: counting goes on in a new window.
      window.hits = 0;
      window.expiresAt = now + ttl;
    }
    window.hits += 1;
    const timeToExpire = seconds(window.expiresAt - now);
    if (blockDuration <= 0) {
      // No block to serve: refused while this window is over the limit.
      const isBlocked = window.hits > limit;
      return {
        totalHits: window.hits,
        timeToExpire,
        isBlocked,
        timeToBlockExpire: isBlocked ? timeToExpire : 0,
      };
    }
    if (window.blockedUntil <= now && window.hits > limit) {
      window.blockedUntil = now + blockDuration;
    }
    const isBlocked = window.blockedUntil > now;
    return {
      totalHits: window.hits,
      timeToExpire,
      isBlocked,
      timeToBlockExpire: isBlocked ? seconds(window.blockedUntil - now) : 0,
    };
  }

  /** Removes the windows that ended and are not blocked. */
  sweep(): void {
    const now = this.now();
    for (const [id, window] of this.windows) {
      if (window.expiresAt <= now && window.blockedUntil <= now) this.windows.delete(id);
    }
  }

  onApplicationShutdown(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    this.windows.clear();
  }

  private makeRoom(): void {
    if (this.windows.size < this.maxKeys) return;
    this.sweep();
    // Still full of live windows: forget the one that opened first.
    while (this.windows.size >= this.maxKeys) {
      const oldest = this.windows.keys().next();
      if (oldest.done) break;
      this.windows.delete(oldest.value);
    }
  }

  private startSweeping(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), COUNTER_STORAGE_SWEEP_MS);
    this.sweeper.unref();
  }
}

function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}
