import { Init1763700000000 as PostgresInit } from './postgres/1763700000000-init';
import { Init1763700000000 as SqliteInit } from './sqlite/1763700000000-init';

/** Applied in this order. Each schema change adds one migration per dialect, with an exact `down`. */
export const SQLITE_MIGRATIONS = [SqliteInit];
export const POSTGRES_MIGRATIONS = [PostgresInit];
