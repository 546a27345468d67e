import {
  Inject,
  Injectable,
  Logger,
  OnApplicationShutdown,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import type Redis from 'ioredis';
import type { TeamContext } from '@app/database';
import { closeRedisClient, duplicateRedisClient, publishQuietly, REDIS } from '@app/redis';
import { Actor } from './actor';

/** The Redis channel on which instances tell each other to drop cached authentication. */
export const AUTH_INVALIDATION_CHANNEL = 'linkdock:auth-invalidation';

/** How long an authenticated key (or a resolved team context) is trusted without the database. */
export const AUTH_CACHE_TTL_MS = 30_000;
/** Entries of each kind kept at most; the oldest goes first. */
export const AUTH_CACHE_LIMIT = 10_000;

/** A valid key as the guard last read it from the database. */
export interface CachedKey {
  actor: Readonly<Actor>;
  /** The key's expiry in ms since the epoch, or null: checked on every hit. */
  expiresAt: number | null;
  /** When last_used_datetime was last written (or queued) for this key, in ms. */
  touchedAt: number;
  cachedAt: number;
}

interface CachedContext {
  context: TeamContext | null;
  teamId: number;
  userId: number;
  cachedAt: number;
}

type Invalidation =
  | { kind: 'key'; keyId: number }
  | { kind: 'user'; userId: number }
  | { kind: 'team'; teamId: number }
  | { kind: 'all' };

/**
 * What the authenticated hot path would otherwise read from the database on every request: API
 * key hash -> actor, and (team id, user id) -> team context. Entries live AUTH_CACHE_TTL_MS at
 * most and are dropped at once by the `drop*` methods, which also tell the other instances through
 * Redis pub/sub when REDIS_URL is set. Whoever changes what an actor may do calls one of them
 * after the change is committed: revoking a key (`dropKey`), anything about a user that the actor
 * or its limits derive from, such as its plan (`dropUser`), a team or its memberships
 * (`dropTeam`, or `dropUser` of the owner or the member).
 *
 * A load that read the database before a drop must not fill the cache after it: callers take
 * `generation()` before their read and pass it to `putKey`/`putContext`, which then ignore it.
 */
@Injectable()
export class AuthCache implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(AuthCache.name);
  private readonly keys = new Map<string, CachedKey>();
  private readonly contexts = new Map<string, CachedContext>();
  private epoch = 0;
  private subscriber: Redis | null = null;

  constructor(@Optional() @Inject(REDIS) private readonly redis: Redis | null = null) {}

  onModuleInit(): void {
    if (!this.redis) {
      return;
    }
    const subscriber = duplicateRedisClient(this.redis);
    this.subscriber = subscriber;
    subscriber.on('message', (_channel: string, message: string) => this.onRemote(message));
    subscriber.subscribe(AUTH_INVALIDATION_CHANNEL).catch((err: unknown) => {
      this.logger.warn(`Cannot subscribe to authentication invalidations: ${String(err)}`);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.subscriber) await closeRedisClient(this.subscriber);
  }

  /** Bumped by every drop; see the class comment. */
  generation(): number {
    return this.epoch;
  }

  /** The cached key with this hash, if it was cached less than the TTL ago. */
  getKey(hash: string, now: number): CachedKey | undefined {
    const entry = this.keys.get(hash);
    if (entry && now - entry.cachedAt >= AUTH_CACHE_TTL_MS) {
      this.keys.delete(hash);
      return undefined;
    }
    return entry;
  }

  putKey(hash: string, entry: CachedKey, generation: number): void {
    if (generation !== this.epoch) {
      return;
    }
    this.keys.delete(hash);
    if (this.keys.size >= AUTH_CACHE_LIMIT) {
      this.keys.delete(this.keys.keys().next().value as string);
    }
    this.keys.set(hash, entry);
  }

  /** undefined: not cached; null: cached as "no such team, or not an accepted member". */
  getContext(teamId: number, userId: number, now: number): TeamContext | null | undefined {
    const key = `${teamId}:${userId}`;
    const entry = this.contexts.get(key);
    if (!entry) {
      return undefined;
    }
    if (now - entry.cachedAt >= AUTH_CACHE_TTL_MS) {
      this.contexts.delete(key);
      return undefined;
    }
    return entry.context;
  }

  putContext(
    teamId: number,
    userId: number,
    context: TeamContext | null,
    now: number,
    generation: number,
  ): void {
    if (generation !== this.epoch) {
      return;
    }
    const key = `${teamId}:${userId}`;
    this.contexts.delete(key);
    if (this.contexts.size >= AUTH_CACHE_LIMIT) {
      this.contexts.delete(this.contexts.keys().next().value as string);
    }
    this.contexts.set(key, { context, teamId, userId, cachedAt: now });
  }

  /** Drops the key with this id (revoked, or changed in any other way). */
  dropKey(keyId: number): void {
    this.apply({ kind: 'key', keyId });
    this.publish({ kind: 'key', keyId });
  }

  /**
   * Drops everything cached about this user: its keys (so the next request re-reads the user, and
   * with it whatever the actor is built from, e.g. its plan) and the team contexts in which it is
   * the member or the team owner. Call it after any change to a user that authentication or its
   * limits depend on.
   */
  dropUser(userId: number): void {
    this.apply({ kind: 'user', userId });
    this.publish({ kind: 'user', userId });
  }

  /** Drops the cached contexts of this team (its memberships or the team itself changed). */
  dropTeam(teamId: number): void {
    this.apply({ kind: 'team', teamId });
    this.publish({ kind: 'team', teamId });
  }

  /** Drops everything, here and on the other instances. */
  dropAll(): void {
    this.apply({ kind: 'all' });
    this.publish({ kind: 'all' });
  }

  private apply(change: Invalidation): void {
    this.epoch += 1;
    switch (change.kind) {
      case 'all':
        this.keys.clear();
        this.contexts.clear();
        return;
      case 'key':
        for (const [hash, entry] of this.keys) {
          if (entry.actor.apiKeyId === change.keyId) this.keys.delete(hash);
        }
        return;
      case 'user':
        for (const [hash, entry] of this.keys) {
          if (entry.actor.userId === change.userId) this.keys.delete(hash);
        }
        for (const [key, entry] of this.contexts) {
          if (entry.userId === change.userId || entry.context?.team.user_id === change.userId) {
            this.contexts.delete(key);
          }
        }
        return;
      case 'team':
        for (const [key, entry] of this.contexts) {
          if (entry.teamId === change.teamId) this.contexts.delete(key);
        }
        return;
    }
  }

  private publish(change: Invalidation): void {
    publishQuietly(
      this.redis,
      AUTH_INVALIDATION_CHANNEL,
      change,
      this.logger,
      'an authentication invalidation',
    );
  }

  private onRemote(message: string): void {
    try {
      const change = JSON.parse(message) as Invalidation;
      if (
        (change.kind === 'key' && Number.isInteger(change.keyId)) ||
        (change.kind === 'user' && Number.isInteger(change.userId)) ||
        (change.kind === 'team' && Number.isInteger(change.teamId)) ||
        change.kind === 'all'
      ) {
        this.apply(change);
      }
    } catch {
      this.logger.warn('Ignored a malformed authentication invalidation message');
    }
  }
}
