import { DataSource } from 'typeorm';
import { ApiKeysService, UsersService } from '@app/auth';
import { AppError, formatDateTime, parseDateTime } from '@app/common';
import {
  API_KEY_SCOPES,
  ApiKeyEntity,
  ApiKeyScope,
  revertLastMigration,
  runMigrations,
  UserEntity,
} from '@app/database';
import { BILLING_COMMANDS } from './billing-commands';
import { Command, Options, required, str } from './command';
import { LINK_COMMANDS } from './links/link-commands';
import { SECRETS_COMMANDS } from './secrets-commands';
import { STORAGE_COMMANDS } from './storage-commands';

export type { Command, Options };

function userSummary(user: UserEntity) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    is_admin: user.is_admin,
    timezone: user.timezone,
    datetime: formatDateTime(user.datetime),
  };
}

function keySummary(key: ApiKeyEntity) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scope: key.scope,
    expiration_datetime: formatDateTime(key.expiration_datetime),
    revocation_datetime: formatDateTime(key.revocation_datetime),
    last_used_datetime: formatDateTime(key.last_used_datetime),
    datetime: formatDateTime(key.datetime),
  };
}

function parseExpiry(options: Options, now: Date): Date | undefined {
  const at = str(options, 'expires');
  const days = str(options, 'expires-in-days');
  if (at !== undefined && days !== undefined) {
    throw new AppError(
      'validation_failed',
      'Give --expires or --expires-in-days, not both.',
      'expires',
    );
  }
  if (at !== undefined) {
    const date = parseDateTime(at);
    if (!date) {
      throw new AppError('validation_failed', '--expires must be "Y-m-d H:i:s" (UTC).', 'expires');
    }
    return date;
  }
  if (days !== undefined) {
    if (!/^\d{1,5}$/.test(days) || Number(days) < 1) {
      throw new AppError(
        'validation_failed',
        '--expires-in-days must be a whole number of 1 or more.',
        'expires-in-days',
      );
    }
    return new Date(now.getTime() + Number(days) * 86_400_000);
  }
  return undefined;
}

export const COMMANDS: Record<string, Command> = {
  'user:create': {
    usage: 'user:create --email E [--name N] [--admin] [--timezone Europe/Berlin]',
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      admin: { type: 'boolean' },
      timezone: { type: 'string' },
    },
    async run(app, options) {
      const issued = await app.get(UsersService).create({
        email: required(options, 'email'),
        name: str(options, 'name'),
        isAdmin: options.admin === true,
        timezone: str(options, 'timezone'),
      });
      return { id: issued.user.id, email: issued.user.email, api_key: issued.apiKey };
    },
  },
  'user:list': {
    usage: 'user:list',
    options: {},
    async run(app) {
      return (await app.get(UsersService).list()).map(userSummary);
    },
  },
  'key:create': {
    usage:
      'key:create --email E [--name N] [--scope full|read] [--expires "Y-m-d H:i:s" | --expires-in-days D]',
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      scope: { type: 'string' },
      expires: { type: 'string' },
      'expires-in-days': { type: 'string' },
    },
    async run(app, options) {
      const email = required(options, 'email');
      const expiresAt = parseExpiry(options, new Date());
      const scope = str(options, 'scope') ?? 'full';
      if (!(API_KEY_SCOPES as readonly string[]).includes(scope)) {
        throw new AppError('validation_failed', '--scope must be full or read.', 'scope');
      }
      const issued = await app.get(ApiKeysService).issue(email, {
        name: str(options, 'name'),
        expiresAt,
        scope: scope as ApiKeyScope,
      });
      return { id: issued.user.id, email: issued.user.email, api_key: issued.apiKey };
    },
  },
  'key:list': {
    usage: 'key:list --email E',
    options: { email: { type: 'string' } },
    async run(app, options) {
      return (await app.get(ApiKeysService).list(required(options, 'email'))).map(keySummary);
    },
  },
  'key:revoke': {
    usage: 'key:revoke --key K   |   key:revoke --email E --id KEY_ID',
    options: { key: { type: 'string' }, email: { type: 'string' }, id: { type: 'string' } },
    async run(app, options) {
      const keys = app.get(ApiKeysService);
      const key = str(options, 'key');
      let revoked: ApiKeyEntity;
      if (key !== undefined) {
        revoked = await keys.revoke({ key });
      } else {
        const id = required(options, 'id');
        if (!/^\d{1,10}$/.test(id)) {
          throw new AppError('validation_failed', '--id must be a key id from key:list.', 'id');
        }
        revoked = await keys.revoke({ email: required(options, 'email'), id: Number(id) });
      }
      return { id: revoked.id, revocation_datetime: formatDateTime(revoked.revocation_datetime) };
    },
  },
  ...LINK_COMMANDS,
  ...BILLING_COMMANDS,
  ...STORAGE_COMMANDS,
  ...SECRETS_COMMANDS,
  'migration:run': {
    usage: 'migration:run',
    options: {},
    async run(app) {
      const applied = await runMigrations(app.get(DataSource));
      return { applied: applied.map((m) => m.name) };
    },
  },
  'migration:revert': {
    usage: 'migration:revert   (undoes the last applied migration)',
    options: {},
    async run(app) {
      const dataSource = app.get(DataSource);
      const before = await dataSource.query<unknown[]>('SELECT id FROM migrations');
      await revertLastMigration(dataSource);
      const after = await dataSource.query<unknown[]>('SELECT id FROM migrations');
      return { reverted: before.length - after.length };
    },
  },
};
