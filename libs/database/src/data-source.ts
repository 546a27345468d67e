import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '@app/config';
import { usePostgresUtc } from './engine/postgres/postgres-utc';
import { sqliteConnection } from './engine/sqlite/sqlite-connection';
import { stopSqliteReader } from './engine/sqlite/sqlite-reader';
import { sqliteWriteLock } from './engine/sqlite/sqlite-write-lock';
import { WalCheckpointer } from './engine/sqlite/wal-checkpointer';
import { ENTITIES } from './entities';
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from './migrations';

/**
 * TypeORM options for either dialect. The schema only ever changes through migrations:
 * `synchronize` stays off, and start-up runs pending migrations itself.
 */
export function buildDataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  if (database.type === 'postgres') {
    usePostgresUtc();
    const options = ['-c timezone=UTC'];
    if (database.schema) {
      options.push(`-c search_path=${database.schema}`);
    }
    return {
      type: 'postgres',
      url: database.url,
      schema: database.schema,
      entities: ENTITIES,
      migrations: POSTGRES_MIGRATIONS,
      migrationsTableName: 'migrations',
      synchronize: false,
      extra: { options: options.join(' '), max: 10, application_name: 'linkdock' },
    };
  }
  if (database.path !== ':memory:') {
    mkdirSync(dirname(database.path), { recursive: true });
  }
  return {
    type: 'better-sqlite3',
    database: database.path,
    entities: ENTITIES,
    migrations: SQLITE_MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    enableWAL: true,
    // WAL makes readers and the writer independent; NORMAL sync is safe with WAL and ~10x faster.
    prepareDatabase: (db: { pragma: (sql: string) => unknown }) => {
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
    },
  };
}

/**
 * The data source of both apps. SQLite has one integer type, 64-bit whatever a column declares:
 * its schema declares every integer column `integer`, so the entities' `bigint` columns (the
 * counters, see counter-column.ts) are `integer` there too, and the schema matches the entities
 * without rebuilding tables for a name that changes nothing.
 */
export class AppDataSource extends DataSource {
  private checkpointer: WalCheckpointer | null = null;

  override async initialize(): Promise<this> {
    await super.initialize();
    const connection = sqliteConnection(this);
    if (connection !== null && this.options.type === 'better-sqlite3') {
      this.checkpointer = WalCheckpointer.start(
        connection,
        this.options.database,
        sqliteWriteLock(this),
      );
    }
    return this;
  }

  override async destroy(): Promise<void> {
    const checkpointer = this.checkpointer;
    this.checkpointer = null;
    await stopSqliteReader(this);
    await checkpointer?.stop();
    await super.destroy();
  }

  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    if (this.options.type !== 'better-sqlite3') {
      return;
    }
    for (const entity of this.entityMetadatas) {
      for (const column of entity.columns) {
        if (column.type === 'bigint') {
          column.type = 'integer';
        }
      }
    }
  }
}
