import { Init1763700000000 as PostgresInit } from './postgres/1763700000000-init';
import { QrCodes1763900000000 as PostgresQrCodes } from './postgres/1763900000000-qr-codes';
import { Init1763700000000 as SqliteInit } from './sqlite/1763700000000-init';
import { QrCodes1763900000000 as SqliteQrCodes } from './sqlite/1763900000000-qr-codes';

/** Applied in this order. Each schema change adds one migration per dialect, with an exact `down`. */
export const SQLITE_MIGRATIONS = [SqliteInit, SqliteQrCodes];
export const POSTGRES_MIGRATIONS = [PostgresInit, PostgresQrCodes];
