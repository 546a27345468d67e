import { Injectable } from '@nestjs/common';
import { AppError, Clock, formatDateTime, ListQuery, NotFoundError, Paginated } from '@app/common';
import { ApiKeyEntity, ApiKeyScope, ApiKeysRepository } from '@app/database';
import { Actor } from './actor';
import { generateApiKey, hashApiKey } from './api-key';
import { AuthCache } from './auth-cache';
import { KeyUsage } from './key-usage';
import { IssuedKey, UsersService } from './users.service';

/** last_used_datetime is written at most this often per key, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;
const MAX_KEY_LENGTH = 256;
/** Keys one user may hold at once (not revoked); each is a door into the account. */
export const MAX_ACTIVE_KEYS = 100;
/** `read` ranks below `full`: a key never makes one that may do more than itself. */
const SCOPE_RANK: Record<ApiKeyScope, number> = { read: 0, full: 1 };

/** What a user asks for when making a key through the API. */
export interface NewKeyRequest {
  name: string;
  scope: ApiKeyScope;
  expiresAt?: Date;
}

/** A key just made: the row, and the secret shown this once. */
export interface CreatedKey {
  key: ApiKeyEntity;
  apiKey: string;
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly users: UsersService,
    private readonly clock: Clock,
    private readonly cache: AuthCache,
    private readonly usage: KeyUsage,
  ) {}

  /** Issues another key for the user with this email (the operator's command line). */
  async issue(
    email: string,
    options: { name?: string; expiresAt?: Date; scope?: ApiKeyScope } = {},
  ): Promise<IssuedKey> {
    const user = await this.users.getByEmail(email);
    const now = this.clock.now();
    if (options.expiresAt && options.expiresAt <= now) {
      throw new AppError('validation_failed', 'The expiry must be in the future.', 'expires');
    }
    const name = options.name?.trim() ?? '';
    if (name.length > 64) {
      throw new AppError('validation_failed', 'name must be at most 64 characters.', 'name');
    }
    const { key } = await this.insertKey(user.id, {
      name,
      scope: options.scope ?? 'full',
      expiresAt: options.expiresAt,
    });
    return { user, apiKey: key.key, apiKeyId: key.id };
  }

  /**
   * A key made by the key of `actor` (POST /v1/api-keys): it may not do more than the key that
   * makes it, nor outlive it (without an expiry it gets that key's expiry).
   */
  async createFor(actor: Actor, request: NewKeyRequest): Promise<CreatedKey> {
    const maker = await this.keys.findActiveOwned(actor.userId, actor.apiKeyId);
    if (!maker) {
      throw new AppError('forbidden', 'Only an API key can make another API key.');
    }
    if (SCOPE_RANK[request.scope] > SCOPE_RANK[maker.scope]) {
      throw new AppError(
        'forbidden',
        `A ${maker.scope} key cannot make a ${request.scope} key.`,
        'scope',
      );
    }
    const now = this.clock.now();
    const limit = maker.expiration_datetime;
    if (request.expiresAt && request.expiresAt <= now) {
      throw new AppError(
        'validation_failed',
        'expiration_datetime must be in the future.',
        'expiration_datetime',
      );
    }
    if (request.expiresAt && limit && request.expiresAt > limit) {
      throw new AppError(
        'validation_failed',
        `expiration_datetime must not be later than the expiry of the key that makes it (${formatDateTime(limit)}).`,
        'expiration_datetime',
      );
    }
    if ((await this.keys.countActive(actor.userId)) >= MAX_ACTIVE_KEYS) {
      throw new AppError(
        'validation_failed',
        `You have ${MAX_ACTIVE_KEYS} API keys, the most an account may have; revoke one first.`,
      );
    }
    const { key, row } = await this.insertKey(actor.userId, {
      name: request.name,
      scope: request.scope,
      expiresAt: request.expiresAt ?? limit ?? undefined,
    });
    return { key: row, apiKey: key.key };
  }

  /** The user's keys that are not revoked. */
  listActive(userId: number, query: ListQuery): Promise<Paginated<ApiKeyEntity>> {
    return this.keys.listActive(userId, query);
  }

  /** Revokes one of the user's keys; a key revoked already is not found. */
  async revokeOwned(userId: number, id: number): Promise<ApiKeyEntity> {
    if (!(await this.keys.findActiveOwned(userId, id))) {
      throw new NotFoundError('api_key_not_found', 'API key');
    }
    return this.revoke({ userId, id });
  }

  private async insertKey(
    userId: number,
    options: { name: string; scope: ApiKeyScope; expiresAt?: Date },
  ): Promise<{ key: { key: string; id: number }; row: ApiKeyEntity }> {
    const key = generateApiKey();
    const row = await this.keys.save(
      Object.assign(new ApiKeyEntity(), {
        user_id: userId,
        name: options.name,
        prefix: key.prefix,
        key_hash: key.hash,
        scope: options.scope,
        expiration_datetime: options.expiresAt ?? null,
        revocation_datetime: null,
        last_used_datetime: null,
        datetime: this.clock.now(),
      }),
      'api_key.created',
    );
    return { key: { key: key.key, id: row.id }, row };
  }

  /** Revokes a key, found by its value or by its owner and id. Revoking twice is harmless. */
  async revoke(
    target: { key: string } | { email: string; id: number } | { userId: number; id: number },
  ): Promise<ApiKeyEntity> {
    const found =
      'key' in target
        ? (await this.keys.findByHash(hashApiKey(target.key)))?.key
        : 'userId' in target
          ? await this.keys.findOwned(target.userId, target.id)
          : await this.keys.findOwned((await this.users.getByEmail(target.email)).id, target.id);
    if (!found) {
      throw new NotFoundError('api_key_not_found', 'API key');
    }
    if (found.revocation_datetime !== null) {
      return found;
    }
    found.revocation_datetime = this.clock.now();
    const saved = await this.keys.save(found, 'api_key.revoked');
    this.cache.dropKey(saved.id);
    return saved;
  }

  async list(email: string): Promise<ApiKeyEntity[]> {
    return this.keys.listOwned((await this.users.getByEmail(email)).id);
  }

  /**
   * The actor behind a presented key, or null when the key is unknown, revoked or expired. A key
   * found valid is kept in the AuthCache for a short while (revoking drops it at once; its expiry
   * is checked on every use); uses of a cached key are written by KeyUsage in the background.
   */
  async authenticate(token: string): Promise<Actor | null> {
    if (token.length === 0 || token.length > MAX_KEY_LENGTH) {
      return null;
    }
    const hash = hashApiKey(token);
    const now = this.clock.now();
    const nowMs = now.getTime();
    const cached = this.cache.getKey(hash, nowMs);
    if (cached) {
      if (cached.expiresAt !== null && cached.expiresAt <= nowMs) {
        return null;
      }
      if (nowMs - cached.touchedAt >= TOUCH_INTERVAL_MS) {
        cached.touchedAt = nowMs;
        this.usage.record(cached.actor.apiKeyId, now);
      }
      return { ...cached.actor };
    }
    const generation = this.cache.generation();
    const found = await this.keys.findByHash(hash);
    if (
      !found ||
      found.key.revocation_datetime !== null ||
      (found.key.expiration_datetime !== null && found.key.expiration_datetime <= now)
    ) {
      return null;
    }
    const { key, user } = found;
    let touchedAt = key.last_used_datetime?.getTime() ?? 0;
    if (nowMs - touchedAt >= TOUCH_INTERVAL_MS) {
      await this.keys.touch(key.id, now);
      touchedAt = nowMs;
    }
    const actor: Actor = {
      userId: user.id,
      apiKeyId: key.id,
      isAdmin: user.is_admin,
      ownerId: user.id,
      scope: key.scope,
    };
    this.cache.putKey(
      hash,
      {
        actor: Object.freeze({ ...actor }),
        expiresAt: key.expiration_datetime?.getTime() ?? null,
        touchedAt,
        cachedAt: nowMs,
      },
      generation,
    );
    return actor;
  }
}
