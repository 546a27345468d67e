import { Injectable } from '@nestjs/common';
import { AppError, Clock, isEmailAddress, isValidTimeZone, NotFoundError } from '@app/common';
import { UserEntity, UsersRepository } from '@app/database';
import { generateApiKey } from './api-key';

export interface NewUser {
  email: string;
  name?: string;
  isAdmin?: boolean;
  timezone?: string;
}

/** A user with a key that was just issued; the key is never retrievable again. */
export interface IssuedKey {
  user: UserEntity;
  apiKey: string;
  apiKeyId: number;
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  /** Creates a user together with its first API key. */
  async create(input: NewUser): Promise<IssuedKey> {
    const email = input.email.trim().toLowerCase();
    const name = (input.name ?? email.split('@')[0]).trim();
    const timezone = input.timezone ?? 'UTC';
    const problems = [
      ...(isEmailAddress(email)
        ? []
        : [{ title: 'email must be a valid email address.', field: 'email' }]),
      ...(name.length >= 1 && name.length <= 64
        ? []
        : [{ title: 'name must be 1 to 64 characters.', field: 'name' }]),
      ...(isValidTimeZone(timezone)
        ? []
        : [
            {
              title: 'timezone must be an IANA time zone such as Europe/Berlin.',
              field: 'timezone',
            },
          ]),
    ];
    if (problems.length > 0) {
      throw new AppError('validation_failed', problems);
    }
    if (await this.users.findByEmail(email)) {
      throw new AppError(
        'already_exists',
        `A user with the email ${email} already exists.`,
        'email',
      );
    }
    const now = this.clock.now();
    const key = generateApiKey();
    const created = await this.users.createWithKey(
      {
        email,
        name,
        is_admin: input.isAdmin ?? false,
        timezone,
        plan_id: null,
        plan_expiration_date: null,
        datetime: now,
        last_datetime: null,
      },
      {
        name: 'default',
        prefix: key.prefix,
        key_hash: key.hash,
        scope: 'full',
        expiration_datetime: null,
        revocation_datetime: null,
        last_used_datetime: null,
        datetime: now,
      },
    );
    return { user: created.user, apiKey: key.key, apiKeyId: created.key.id };
  }

  /**
   * On a database without users, creates the admin and returns its key; otherwise null. When
   * several instances start together, the unique email lets exactly one of them win.
   */
  async ensureFirstAdmin(email: string): Promise<IssuedKey | null> {
    if ((await this.users.count()) > 0) {
      return null;
    }
    try {
      return await this.create({ email, name: 'Admin', isAdmin: true });
    } catch (error) {
      if ((await this.users.count()) > 0) {
        return null;
      }
      throw error;
    }
  }

  async get(id: number): Promise<UserEntity> {
    const user = await this.users.findById(id);
    if (!user) {
      throw new NotFoundError('user_not_found', 'user');
    }
    return user;
  }

  async getByEmail(email: string): Promise<UserEntity> {
    const user = await this.users.findByEmail(email.trim());
    if (!user) {
      throw new NotFoundError('user_not_found', 'user');
    }
    return user;
  }

  list(): Promise<UserEntity[]> {
    return this.users.all();
  }
}
