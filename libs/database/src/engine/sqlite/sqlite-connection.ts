import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource } from 'typeorm';

/**
 * The better-sqlite3 connection under a TypeORM data source (its one connection), for prepared
 * statements and synchronous transactions; null on PostgreSQL.
 */
export function sqliteConnection(dataSource: DataSource): BetterSqlite3.Database | null {
  if (dataSource.options.type !== 'better-sqlite3') {
    return null;
  }
  return (dataSource.driver as unknown as { databaseConnection: BetterSqlite3.Database })
    .databaseConnection;
}

/** A value as better-sqlite3 binds it: it binds no booleans, which SQLite stores as 0 and 1. */
export function sqliteBindable<T>(value: T): T | number {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

/** Prepared statements of each better-sqlite3 connection, by SQL text. */
const statements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();
/** Beyond this many texts (IN lists of every length), a connection's statements are prepared anew. */
const STATEMENTS_PER_CONNECTION = 200;

/**
 * `db.prepare(sql)`, once per connection and text: preparing parses and plans the SQL, which
 * costs more than running a short statement, and the dispatcher runs the same few on every pass.
 */
export function prepared(db: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let byText = statements.get(db);
  if (byText === undefined) {
    byText = new Map();
    statements.set(db, byText);
  }
  let statement = byText.get(sql);
  if (statement === undefined) {
    if (byText.size >= STATEMENTS_PER_CONNECTION) byText.clear();
    statement = db.prepare(sql);
    byText.set(sql, statement);
  }
  return statement;
}
