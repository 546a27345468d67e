import type Redis from 'ioredis';
import type { TeamContext } from '@app/database';
import { Actor } from './actor';
import {
  AUTH_CACHE_LIMIT,
  AUTH_CACHE_TTL_MS,
  AUTH_INVALIDATION_CHANNEL,
  AuthCache,
  CachedKey,
} from './auth-cache';

const T0 = 1_700_000_000_000;

function entry(userId: number, apiKeyId: number): CachedKey {
  const actor: Actor = { userId, apiKeyId, isAdmin: false, ownerId: userId, scope: 'full' };
  return { actor, expiresAt: null, touchedAt: T0, cachedAt: T0 };
}

const context = (teamId: number, ownerId: number): TeamContext =>
  ({ team: { id: teamId, user_id: ownerId }, member: null }) as unknown as TeamContext;

/** A Redis double: publish records, duplicate() returns a subscriber whose messages we push. */
class FakeRedis {
  status = 'ready';
  published: Array<[string, unknown]> = [];
  private handler: ((channel: string, message: string) => void) | null = null;
  subscribed: string[] = [];

  publish(channel: string, message: string): Promise<number> {
    this.published.push([channel, JSON.parse(message)]);
    return Promise.resolve(1);
  }

  duplicate(): FakeRedis {
    return this;
  }

  on(_event: string, handler: (channel: string, message: string) => void): void {
    this.handler = handler;
  }

  subscribe(channel: string): Promise<void> {
    this.subscribed.push(channel);
    return Promise.resolve();
  }

  quit(): Promise<void> {
    this.status = 'end';
    return Promise.resolve();
  }

  deliver(message: string): void {
    this.handler?.(AUTH_INVALIDATION_CHANNEL, message);
  }
}

describe(AuthCache.name, () => {
  it('keeps a key for the TTL and not a moment longer', () => {
    const cache = new AuthCache(null);
    cache.putKey('h1', entry(7, 3), cache.generation());

    expect(cache.getKey('h1', T0 + AUTH_CACHE_TTL_MS - 1)?.actor.apiKeyId).toBe(3);
    expect(cache.getKey('h1', T0 + AUTH_CACHE_TTL_MS)).toBeUndefined();
    expect(cache.getKey('h1', T0)).toBeUndefined();
  });

  it('drops a key by its id, and every key and team context of a user', () => {
    const cache = new AuthCache(null);
    const g = cache.generation();
    cache.putKey('h1', entry(7, 3), g);
    cache.putKey('h2', entry(7, 4), g);
    cache.putKey('h3', entry(8, 5), g);
    cache.putContext(10, 8, context(10, 7), T0, g);
    cache.putContext(11, 7, context(11, 9), T0, g);
    cache.putContext(12, 8, context(12, 9), T0, g);

    cache.dropKey(3);
    expect(cache.getKey('h1', T0)).toBeUndefined();
    expect(cache.getKey('h2', T0)).toBeDefined();

    cache.dropUser(7);
    expect(cache.getKey('h2', T0)).toBeUndefined();
    expect(cache.getKey('h3', T0)).toBeDefined();
    // 7 owns team 10 and is a member of team 11; team 12 is none of its business.
    expect(cache.getContext(10, 8, T0)).toBeUndefined();
    expect(cache.getContext(11, 7, T0)).toBeUndefined();
    expect(cache.getContext(12, 8, T0)).toEqual(context(12, 9));
  });

  it('caches "not a member" too, and drops the contexts of a team', () => {
    const cache = new AuthCache(null);
    cache.putContext(10, 8, null, T0, cache.generation());
    cache.putContext(11, 8, context(11, 7), T0, cache.generation());

    expect(cache.getContext(10, 8, T0)).toBeNull();
    cache.dropTeam(10);
    expect(cache.getContext(10, 8, T0)).toBeUndefined();
    expect(cache.getContext(11, 8, T0 + AUTH_CACHE_TTL_MS - 1)).toEqual(context(11, 7));
    expect(cache.getContext(11, 8, T0 + AUTH_CACHE_TTL_MS)).toBeUndefined();
  });

  it('ignores what was read before a drop', () => {
    const cache = new AuthCache(null);
    const before = cache.generation();
    cache.dropUser(99);

    cache.putKey('h1', entry(7, 3), before);
    cache.putContext(10, 7, null, T0, before);

    expect(cache.getKey('h1', T0)).toBeUndefined();
    expect(cache.getContext(10, 7, T0)).toBeUndefined();
  });

  it(`holds at most ${AUTH_CACHE_LIMIT} keys, dropping the oldest`, () => {
    const cache = new AuthCache(null);
    for (let i = 0; i <= AUTH_CACHE_LIMIT; i += 1) {
      cache.putKey(`h${i}`, entry(1, i), cache.generation());
    }

    expect(cache.getKey('h0', T0)).toBeUndefined();
    expect(cache.getKey('h1', T0)).toBeDefined();
    expect(cache.getKey(`h${AUTH_CACHE_LIMIT}`, T0)).toBeDefined();
  });

  it('publishes its drops and applies those of other instances', async () => {
    const redis = new FakeRedis();
    const cache = new AuthCache(redis as unknown as Redis);
    cache.onModuleInit();
    cache.putKey('h1', entry(7, 3), cache.generation());
    cache.putKey('h2', entry(8, 4), cache.generation());
    cache.putContext(10, 8, null, T0, cache.generation());

    cache.dropUser(42);
    cache.dropKey(5);
    cache.dropTeam(6);
    expect(redis.subscribed).toEqual([AUTH_INVALIDATION_CHANNEL]);
    expect(redis.published).toEqual([
      [AUTH_INVALIDATION_CHANNEL, { kind: 'user', userId: 42 }],
      [AUTH_INVALIDATION_CHANNEL, { kind: 'key', keyId: 5 }],
      [AUTH_INVALIDATION_CHANNEL, { kind: 'team', teamId: 6 }],
    ]);

    redis.deliver(JSON.stringify({ kind: 'user', userId: 7 }));
    expect(cache.getKey('h1', T0)).toBeUndefined();
    redis.deliver(JSON.stringify({ kind: 'key', keyId: 4 }));
    expect(cache.getKey('h2', T0)).toBeUndefined();
    redis.deliver('not json');
    redis.deliver(JSON.stringify({ kind: 'team', teamId: 'x' }));
    expect(cache.getContext(10, 8, T0)).toBeNull();
    redis.deliver(JSON.stringify({ kind: 'team', teamId: 10 }));
    expect(cache.getContext(10, 8, T0)).toBeUndefined();
    // Remote drops are not published again.
    expect(redis.published).toHaveLength(3);

    await cache.onApplicationShutdown();
    expect(redis.status).toBe('end');
  });
});
