import type { DataSource } from 'typeorm';

/** A value's column type (PostgreSQL's name for it, which its unnest() arrays are cast to). */
export type ColumnType = 'int' | 'bigint' | 'varchar';

/**
 * Rows to add to one table with an upsert that adds them to the rows already there (the roll-ups).
 * The statement is the caller's; how its rows are sent is the dialect's (sqlite/upsert-rows.ts,
 * postgres/upsert-rows.ts; chosen by for-dialect.ts).
 */
export interface UpsertRows {
  /** The table: the key of its prepared statements. */
  table: string;
  /** Each value's column type, in the order `values` appends them. */
  types: readonly ColumnType[];
  /** The INSERT … ON CONFLICT statement around the rows' source (a VALUES list or a SELECT). */
  statement(rows: string): string;
  /** How many rows. */
  count: number;
  /** Appends the values of row `index`. */
  values(index: number, into: unknown[]): void;
}

/** Writes upserts, in order, inside the caller's transaction. */
export interface RowUpserts {
  write(batches: readonly UpsertRows[]): Promise<void>;
}

/** What runs the statements: a migration's query runner, or the open write's manager. */
export interface UpsertTarget {
  readonly connection: DataSource;
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}
