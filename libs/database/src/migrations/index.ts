import { Init1763700000000 as PostgresInit } from './postgres/1763700000000-init';
import { SignaturesNotifications1764000000000 as PostgresSignaturesNotifications } from './postgres/1764000000000-signatures-notifications';
import { Init1763700000000 as SqliteInit } from './sqlite/1763700000000-init';
import { SignaturesNotifications1764000000000 as SqliteSignaturesNotifications } from './sqlite/1764000000000-signatures-notifications';

/** Applied in this order. Each schema change adds one migration per dialect, with an exact `down`. */
export const SQLITE_MIGRATIONS = [SqliteInit, SqliteSignaturesNotifications];
export const POSTGRES_MIGRATIONS = [PostgresInit, PostgresSignaturesNotifications];
