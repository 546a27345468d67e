import { Injectable } from '@nestjs/common';
import { AppError, Clock, NotFoundError } from '@app/common';
import { ApiKeyEntity, ApiKeysRepository } from '@app/database';
import { Actor } from './actor';
import { generateApiKey, hashApiKey } from './api-key';
import { IssuedKey, UsersService } from './users.service';

/** last_used_datetime is written at most this often per key, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;
const MAX_KEY_LENGTH = 256;

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly users: UsersService,
    private readonly clock: Clock,
  ) {}

  /** Issues another key for the user with this email. */
  async issue(
    email: string,
    options: { name?: string; expiresAt?: Date } = {},
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
    const key = generateApiKey();
    const saved = await this.keys.save(
      Object.assign(new ApiKeyEntity(), {
        user_id: user.id,
        name,
        prefix: key.prefix,
        key_hash: key.hash,
        expiration_datetime: options.expiresAt ?? null,
        revocation_datetime: null,
        last_used_datetime: null,
        datetime: now,
      }),
    );
    return { user, apiKey: key.key, apiKeyId: saved.id };
  }

  /** Revokes a key, found by its value or by its owner and id. Revoking twice is harmless. */
  async revoke(target: { key: string } | { email: string; id: number }): Promise<ApiKeyEntity> {
    const found =
      'key' in target
        ? (await this.keys.findByHash(hashApiKey(target.key)))?.key
        : await this.keys.findOwned((await this.users.getByEmail(target.email)).id, target.id);
    if (!found) {
      throw new NotFoundError('api_key_not_found', 'API key');
    }
    found.revocation_datetime ??= this.clock.now();
    return this.keys.save(found);
  }

  async list(email: string): Promise<ApiKeyEntity[]> {
    return this.keys.listOwned((await this.users.getByEmail(email)).id);
  }

  /** The actor behind a presented key, or null when the key is unknown, revoked or expired. */
  async authenticate(token: string): Promise<Actor | null> {
    if (token.length === 0 || token.length > MAX_KEY_LENGTH) {
      return null;
    }
    const found = await this.keys.findByHash(hashApiKey(token));
    const now = this.clock.now();
    if (
      !found ||
      found.key.revocation_datetime !== null ||
      (found.key.expiration_datetime !== null && found.key.expiration_datetime <= now)
    ) {
      return null;
    }
    const { key, user } = found;
    const lastUsed = key.last_used_datetime?.getTime() ?? 0;
    if (now.getTime() - lastUsed >= TOUCH_INTERVAL_MS) {
      await this.keys.touch(key.id, now);
    }
    return { userId: user.id, apiKeyId: key.id, isAdmin: user.is_admin, ownerId: user.id };
  }
}
