import { Clock, ErrorEntry, NotFoundError } from '@app/common';
import { ApiKeyEntity, ApiKeysRepository, KeyWithUser, UserEntity } from '@app/database';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { hashApiKey } from './api-key';
import { ApiKeysService } from './api-keys.service';
import { AUTH_CACHE_TTL_MS, AuthCache } from './auth-cache';
import { KeyUsage } from './key-usage';
import { UsersService } from './users.service';

type KeysPort = Pick<
  ApiKeysRepository,
  'findByHash' | 'findOwned' | 'findActiveOwned' | 'countActive' | 'listOwned' | 'touch' | 'save'
>;

/** An in-memory ApiKeysRepository that records what the service wrote. */
class FakeApiKeysRepository implements KeysPort {
  readonly keys: ApiKeyEntity[] = [];
  readonly touched: Array<{ id: number; at: Date }> = [];
  readonly saved: ApiKeyEntity[] = [];
  findByHashCalls = 0;

  constructor(private readonly users: UserEntity[]) {}

  findByHash(keyHash: string): Promise<KeyWithUser | null> {
    this.findByHashCalls += 1;
    const key = this.keys.find((k) => k.key_hash === keyHash);
    const user = this.users.find((u) => u.id === key?.user_id);
    return Promise.resolve(key && user ? { key, user } : null);
  }

  findOwned(userId: number, id: number): Promise<ApiKeyEntity | null> {
    return Promise.resolve(this.keys.find((k) => k.id === id && k.user_id === userId) ?? null);
  }

  findActiveOwned(userId: number, id: number): Promise<ApiKeyEntity | null> {
    return Promise.resolve(
      this.keys.find((k) => k.id === id && k.user_id === userId && !k.revocation_datetime) ?? null,
    );
  }

  countActive(userId: number): Promise<number> {
    return Promise.resolve(
      this.keys.filter((k) => k.user_id === userId && !k.revocation_datetime).length,
    );
  }

  listOwned(userId: number): Promise<ApiKeyEntity[]> {
    return Promise.resolve(this.keys.filter((k) => k.user_id === userId));
  }

  touch(id: number, at: Date): Promise<void> {
    this.touched.push({ id, at });
    return Promise.resolve();
  }

  save(key: ApiKeyEntity): Promise<ApiKeyEntity> {
    if (!this.keys.includes(key)) {
      key.id = 100 + this.keys.length;
      this.keys.push(key);
    }
    this.saved.push({ ...key });
    return Promise.resolve(key);
  }
}

class FakeUsersService implements Pick<UsersService, 'getByEmail'> {
  constructor(private readonly users: UserEntity[]) {}

  getByEmail(email: string): Promise<UserEntity> {
    const user = this.users.find((u) => u.email === email);
    return user
      ? Promise.resolve(user)
      : Promise.reject(new NotFoundError('user_not_found', 'user'));
  }
}

class FakeClock implements Clock {
  constructor(public current: Date) {}

  now(): Date {
    return new Date(this.current);
  }
}

const NOW = new Date('2026-05-01T12:00:00.000Z');
const secondsAgo = (s: number): Date => new Date(NOW.getTime() - s * 1000);
const TOKEN = 'ld_valid-token-of-the-admin-user-0000000000000';

function user(id: number, email: string, isAdmin: boolean): UserEntity {
  return Object.assign(new UserEntity(), {
    id,
    email,
    name: email.split('@')[0],
    is_admin: isAdmin,
    timezone: 'UTC',
    datetime: secondsAgo(86_400),
    last_datetime: null,
  });
}

function apiKey(id: number, userId: number, token: string, values: Partial<ApiKeyEntity> = {}) {
  return Object.assign(new ApiKeyEntity(), {
    id,
    user_id: userId,
    name: 'default',
    prefix: token.slice(0, 10),
    key_hash: hashApiKey(token),
    expiration_datetime: null,
    revocation_datetime: null,
    last_used_datetime: null,
    datetime: secondsAgo(3600),
    ...values,
  });
}

const entriesOf = (promise: Promise<unknown>): Promise<ErrorEntry[]> => rejectionEntries(promise);

describe(ApiKeysService.name, () => {
  let users: UserEntity[];
  let repository: FakeApiKeysRepository;
  let clock: FakeClock;
  let service: ApiKeysService;
  let cache: AuthCache;
  let usage: KeyUsage;

  beforeEach(() => {
    users = [user(7, 'admin@example.com', true), user(8, 'ann@example.com', false)];
    repository = new FakeApiKeysRepository(users);
    clock = new FakeClock(NOW);
    cache = new AuthCache(null);
    usage = new KeyUsage(repository as unknown as ApiKeysRepository);
    service = new ApiKeysService(
      repository as unknown as ApiKeysRepository,
      new FakeUsersService(users) as unknown as UsersService,
      clock,
      cache,
      usage,
    );
  });

  afterEach(() => usage.flush());

  describe('authenticate from the cache', () => {
    const later = (ms: number) => {
      clock.current = new Date(NOW.getTime() + ms);
    };

    it('answers a key used a moment ago without the database', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN));
      const first = await service.authenticate(TOKEN);
      later(AUTH_CACHE_TTL_MS - 1);

      expect(await service.authenticate(TOKEN)).toEqual(first);
      expect(repository.findByHashCalls).toBe(1);
    });

    it('reads the database again once the entry is older than the TTL', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN));
      await service.authenticate(TOKEN);
      later(AUTH_CACHE_TTL_MS);

      expect(await service.authenticate(TOKEN)).not.toBeNull();
      expect(repository.findByHashCalls).toBe(2);
    });

    it('hands every request its own copy of the actor', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN));
      const first = await service.authenticate(TOKEN);
      first!.ownerId = 99;

      expect(await service.authenticate(TOKEN)).toMatchObject({ ownerId: 7 });
    });

    it('refuses a cached key the moment it expires', async () => {
      repository.keys.push(
        apiKey(3, 7, TOKEN, { expiration_datetime: new Date(NOW.getTime() + 5_000) }),
      );
      expect(await service.authenticate(TOKEN)).not.toBeNull();
      later(4_999);
      expect(await service.authenticate(TOKEN)).not.toBeNull();
      later(5_000);

      expect(await service.authenticate(TOKEN)).toBeNull();
      expect(repository.findByHashCalls).toBe(1);
    });

    it('refuses a key at once when it is revoked', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN));
      await service.authenticate(TOKEN);

      await service.revoke({ userId: 7, id: 3 });

      expect(await service.authenticate(TOKEN)).toBeNull();
      expect(repository.findByHashCalls).toBe(2);
    });

    it('reads the key again after dropUser', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN));
      await service.authenticate(TOKEN);

      cache.dropUser(7);
      users[0].is_admin = false;

      expect(await service.authenticate(TOKEN)).toMatchObject({ isAdmin: false });
      expect(repository.findByHashCalls).toBe(2);
    });

    it('does not cache what it read before a drop that happened during the read', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN));
      const findByHash = repository.findByHash.bind(repository);
      repository.findByHash = async (hash) => {
        const found = await findByHash(hash);
        cache.dropKey(3);
        return found;
      };
      await service.authenticate(TOKEN);
      repository.findByHash = findByHash;

      await service.authenticate(TOKEN);
      expect(repository.findByHashCalls).toBe(2);
    });

    it('records the use of a cached key in the background once a minute', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN, { last_used_datetime: secondsAgo(50) }));
      await service.authenticate(TOKEN);
      later(9_999);
      await service.authenticate(TOKEN);
      expect(repository.touched).toEqual([]);
      later(10_000);
      await service.authenticate(TOKEN);
      later(20_000);
      await service.authenticate(TOKEN);
      expect(repository.touched).toEqual([]);

      await usage.flush();

      expect(repository.touched).toEqual([{ id: 3, at: new Date(NOW.getTime() + 10_000) }]);
      expect(repository.findByHashCalls).toBe(1);
    });
  });

  describe('authenticate', () => {
    it('returns the actor behind a valid key', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN));

      expect(await service.authenticate(TOKEN)).toEqual({
        userId: 7,
        apiKeyId: 3,
        isAdmin: true,
        ownerId: 7,
      });
    });

    it('accepts a key that expires after now', async () => {
      repository.keys.push(
        apiKey(3, 8, TOKEN, { expiration_datetime: new Date(NOW.getTime() + 1) }),
      );

      expect(await service.authenticate(TOKEN)).toEqual({
        userId: 8,
        apiKeyId: 3,
        isAdmin: false,
        ownerId: 8,
      });
    });

    it('rejects an unknown key', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN));

      expect(await service.authenticate(`${TOKEN}x`)).toBeNull();
      expect(repository.touched).toEqual([]);
    });

    it('rejects a revoked key', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN, { revocation_datetime: secondsAgo(1) }));

      expect(await service.authenticate(TOKEN)).toBeNull();
      expect(repository.touched).toEqual([]);
    });

    it('rejects an expired key', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN, { expiration_datetime: secondsAgo(1) }));

      expect(await service.authenticate(TOKEN)).toBeNull();
    });

    it('rejects a key that expires exactly now', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN, { expiration_datetime: new Date(NOW) }));

      expect(await service.authenticate(TOKEN)).toBeNull();
      expect(repository.touched).toEqual([]);
    });

    it.each([
      ['an empty token', ''],
      ['a token longer than 256 characters', `ld_${'a'.repeat(254)}`],
    ])('rejects %s without a lookup', async (_what, token) => {
      expect(await service.authenticate(token)).toBeNull();
      expect(repository.findByHashCalls).toBe(0);
    });

    it('looks up a token of exactly 256 characters', async () => {
      const token = `ld_${'a'.repeat(253)}`;
      repository.keys.push(apiKey(4, 8, token));

      expect(await service.authenticate(token)).toEqual({
        userId: 8,
        apiKeyId: 4,
        isAdmin: false,
        ownerId: 8,
      });
      expect(repository.findByHashCalls).toBe(1);
    });

    it('records the first use of a key', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN, { last_used_datetime: null }));

      await service.authenticate(TOKEN);

      expect(repository.touched).toEqual([{ id: 3, at: NOW }]);
    });

    it.each([[61], [60]])('records a use when the last one is %i s old', async (age) => {
      repository.keys.push(apiKey(3, 7, TOKEN, { last_used_datetime: secondsAgo(age) }));

      await service.authenticate(TOKEN);

      expect(repository.touched).toEqual([{ id: 3, at: NOW }]);
    });

    it.each([[10], [59]])('does not record a use when the last one is %i s old', async (age) => {
      repository.keys.push(apiKey(3, 7, TOKEN, { last_used_datetime: secondsAgo(age) }));

      await service.authenticate(TOKEN);

      expect(repository.touched).toEqual([]);
    });
  });

  describe('revoke', () => {
    it('revokes a key found by its value', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN));

      const revoked = await service.revoke({ key: TOKEN });

      expect(revoked).toEqual(apiKey(3, 7, TOKEN, { revocation_datetime: NOW }));
      expect(repository.saved).toEqual([apiKey(3, 7, TOKEN, { revocation_datetime: NOW })]);
    });

    it('keeps the first revocation time when a key is revoked again', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN));
      await service.revoke({ key: TOKEN });
      clock.current = new Date(NOW.getTime() + 3_600_000);

      const again = await service.revoke({ email: 'admin@example.com', id: 3 });

      expect(again.revocation_datetime).toEqual(NOW);
      expect(repository.keys).toEqual([apiKey(3, 7, TOKEN, { revocation_datetime: NOW })]);
    });

    it('rejects a key of another user with 404 api_key_not_found', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN));

      expect(await entriesOf(service.revoke({ email: 'ann@example.com', id: 3 }))).toEqual([
        {
          status: 404,
          title: 'The API key you are looking for does not exist.',
          code: 'api_key_not_found',
        },
      ]);
      expect(repository.keys[0].revocation_datetime).toBeNull();
    });

    it('rejects an unknown key value with 404 api_key_not_found', async () => {
      expect(await entriesOf(service.revoke({ key: TOKEN }))).toEqual([
        {
          status: 404,
          title: 'The API key you are looking for does not exist.',
          code: 'api_key_not_found',
        },
      ]);
    });
  });

  describe('issue', () => {
    it('stores only the hash of a new key and returns the key once', async () => {
      const expiresAt = new Date('2027-01-01T00:00:00Z');

      const issued = await service.issue('ann@example.com', { name: ' ci ', expiresAt });

      expect(issued).toEqual({ user: users[1], apiKey: expect.any(String), apiKeyId: 100 });
      expect(issued.apiKey).toMatch(/^ld_[A-Za-z0-9_-]{43}$/);
      expect(repository.saved).toEqual([
        Object.assign(new ApiKeyEntity(), {
          id: 100,
          user_id: 8,
          name: 'ci',
          prefix: issued.apiKey.slice(0, 10),
          key_hash: hashApiKey(issued.apiKey),
          scope: 'full',
          expiration_datetime: expiresAt,
          revocation_datetime: null,
          last_used_datetime: null,
          datetime: NOW,
        }),
      ]);
      expect(await service.authenticate(issued.apiKey)).toEqual({
        userId: 8,
        apiKeyId: 100,
        isAdmin: false,
        scope: 'full',
        ownerId: 8,
      });
    });

    it.each([
      ['in the past', secondsAgo(1)],
      ['equal to now', new Date(NOW)],
    ])('rejects an expiry %s', async (_when, expiresAt) => {
      expect(await entriesOf(service.issue('ann@example.com', { expiresAt }))).toEqual([
        {
          status: 400,
          title: 'The expiry must be in the future.',
          field: 'expires',
          code: 'validation_failed',
        },
      ]);
      expect(repository.saved).toEqual([]);
    });

    it('rejects a name longer than 64 characters', async () => {
      expect(await entriesOf(service.issue('ann@example.com', { name: 'n'.repeat(65) }))).toEqual([
        {
          status: 400,
          title: 'name must be at most 64 characters.',
          field: 'name',
          code: 'validation_failed',
        },
      ]);
      expect(repository.saved).toEqual([]);
    });
  });

  describe('createFor', () => {
    const actor = { userId: 7, ownerId: 7, apiKeyId: 3, isAdmin: true };
    const at = (iso: string) => new Date(iso);

    it('makes a key with the scope asked for, no later than the maker, and shows its secret once', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN, { scope: 'full' }));
      const made = await service.createFor(actor, { name: 'CI', scope: 'read' });
      expect(made.apiKey).toMatch(/^ld_[A-Za-z0-9_-]{43}$/);
      expect(made.key).toMatchObject({
        user_id: 7,
        name: 'CI',
        scope: 'read',
        prefix: made.apiKey.slice(0, 10),
        key_hash: hashApiKey(made.apiKey),
        expiration_datetime: null,
        datetime: NOW,
      });
    });

    it('gives a key the expiry of an expiring maker, and refuses a later one', async () => {
      const limit = at('2026-06-01T00:00:00Z');
      repository.keys.push(apiKey(3, 7, TOKEN, { scope: 'full', expiration_datetime: limit }));
      expect((await service.createFor(actor, { name: 'a', scope: 'full' })).key).toMatchObject({
        expiration_datetime: limit,
      });
      const earlier = at('2026-05-15T00:00:00Z');
      expect(
        (await service.createFor(actor, { name: 'b', scope: 'full', expiresAt: earlier })).key,
      ).toMatchObject({ expiration_datetime: earlier });
      expect(
        await entriesOf(
          service.createFor(actor, {
            name: 'c',
            scope: 'full',
            expiresAt: at('2026-06-01T00:00:01Z'),
          }),
        ),
      ).toEqual([
        {
          status: 400,
          title:
            'expiration_datetime must not be later than the expiry of the key that makes it (2026-06-01 00:00:00).',
          field: 'expiration_datetime',
          code: 'validation_failed',
        },
      ]);
    });

    it('refuses an expiry in the past, a scope above the maker, and a maker that is no key', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN, { scope: 'read' }));
      expect(
        await entriesOf(service.createFor(actor, { name: 'x', scope: 'read', expiresAt: NOW })),
      ).toEqual([
        {
          status: 400,
          title: 'expiration_datetime must be in the future.',
          field: 'expiration_datetime',
          code: 'validation_failed',
        },
      ]);
      expect(await entriesOf(service.createFor(actor, { name: 'x', scope: 'full' }))).toEqual([
        {
          status: 403,
          title: 'A read key cannot make a full key.',
          field: 'scope',
          code: 'forbidden',
        },
      ]);
      expect(
        await entriesOf(service.createFor({ ...actor, apiKeyId: 0 }, { name: 'x', scope: 'read' })),
      ).toEqual([
        { status: 403, title: 'Only an API key can make another API key.', code: 'forbidden' },
      ]);
    });

    it('returns the scope of the key in the actor', async () => {
      repository.keys.push(apiKey(3, 7, TOKEN, { scope: 'read' }));
      expect(await service.authenticate(TOKEN)).toMatchObject({ apiKeyId: 3, scope: 'read' });
    });
  });
});
