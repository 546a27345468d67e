import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type BetterSqlite3 from 'better-sqlite3';
import { EntityManager, Repository } from 'typeorm';
import { toDbDateTime } from '../db-values';
import { VisitEntity } from './visit.entity';

export type NewVisit = Omit<VisitEntity, 'id' | 'link'>;

const VISIT_COLUMNS = [
  'link_id',
  'datetime',
  'referrer_host',
  'referrer_path',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'continent_code',
  'country_code',
  'city_name',
  'os_name',
  'browser_name',
  'device_type',
  'browser_language',
  'is_unique',
  'visitor_hash',
] as const satisfies ReadonlyArray<keyof NewVisit>;

const POSTGRES_ARRAY_TYPES: Record<(typeof VISIT_COLUMNS)[number], string> = {
  link_id: 'int[]',
  datetime: 'timestamp[]',
  referrer_host: 'varchar[]',
  referrer_path: 'varchar[]',
  utm_source: 'varchar[]',
  utm_medium: 'varchar[]',
  utm_campaign: 'varchar[]',
  continent_code: 'varchar[]',
  country_code: 'varchar[]',
  city_name: 'varchar[]',
  os_name: 'varchar[]',
  browser_name: 'varchar[]',
  device_type: 'varchar[]',
  browser_language: 'varchar[]',
  is_unique: 'boolean[]',
  visitor_hash: 'varchar[]',
};

const COLUMN_LIST = VISIT_COLUMNS.map((c) => `"${c}"`).join(', ');

/** Values as each driver binds them: datetimes as stored UTC text, booleans as 0/1 on SQLite. */
function dbParam(
  value: NewVisit[keyof NewVisit],
  postgres: boolean,
): string | number | boolean | null {
  if (value instanceof Date) {
    return toDbDateTime(value);
  }
  if (typeof value === 'boolean') {
    return postgres ? value : value ? 1 : 0;
  }
  return value;
}

/** How many of the visits belong to each link. */
export function countByLink(visits: readonly Pick<NewVisit, 'link_id'>[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const v of visits) {
    counts.set(v.link_id, (counts.get(v.link_id) ?? 0) + 1);
  }
  return counts;
}

interface SqliteStatements {
  db: BetterSqlite3.Database;
  insert: BetterSqlite3.Statement;
  exists: BetterSqlite3.Statement;
  addClicks: BetterSqlite3.Statement;
  write: (visits: NewVisit[]) => number;
}

/**
 * Writes visits. Each batch is one transaction that inserts the rows and adds them to their links'
 * `clicks` with one UPDATE per link (not one per visit, so a popular link's row is not a hot
 * lock). Visits of links deleted meanwhile are dropped.
 *
 * On SQLite the batch runs synchronously on the driver's connection through better-sqlite3's own
 * transaction: nothing else can interleave with it, and prepared statements skip the ORM's
 * per-row work, which at tens of thousands of visits a second costs more than SQLite itself. On
 * PostgreSQL it is an ordinary transaction on a pooled connection.
 */
@Injectable()
export class VisitsRepository {
  private sqlite: SqliteStatements | null = null;

  constructor(@InjectRepository(VisitEntity) private readonly repo: Repository<VisitEntity>) {}

  /** Whether `recordBatch` would have to wait: another transaction holds the SQLite connection. */
  isBusy(): boolean {
    const statements = this.sqliteStatements();
    return statements !== null && statements.db.inTransaction;
  }

  /** Returns the number of visits written. */
  async recordBatch(visits: NewVisit[]): Promise<number> {
    if (visits.length === 0) {
      return 0;
    }
    const statements = this.sqliteStatements();
    if (statements) {
      return statements.write(visits);
    }
    return this.repo.manager.transaction((em) => this.writePostgres(em, visits));
  }

  private sqliteStatements(): SqliteStatements | null {
    if (this.sqlite || this.repo.manager.connection.options.type !== 'better-sqlite3') {
      return this.sqlite;
    }
    const driver = this.repo.manager.connection.driver as unknown as {
      databaseConnection: BetterSqlite3.Database;
    };
    const db = driver.databaseConnection;
    const insert = db.prepare(
      `INSERT INTO "visits" (${COLUMN_LIST}) VALUES (${VISIT_COLUMNS.map(() => '?').join(', ')})`,
    );
    const exists = db.prepare('SELECT 1 FROM "links" WHERE "id" = ?').pluck();
    const addClicks = db.prepare('UPDATE "links" SET "clicks" = "clicks" + ? WHERE "id" = ?');
    const write = db.transaction((batch: NewVisit[]): number => {
      let written = 0;
      for (const [linkId, count] of countByLink(batch)) {
        if (exists.get(linkId) === undefined) {
          continue;
        }
        addClicks.run(count, linkId);
        written += count;
      }
      for (const visit of batch) {
        if (exists.get(visit.link_id) !== undefined) {
          insert.run(VISIT_COLUMNS.map((c) => dbParam(visit[c], false)));
        }
      }
      return written;
    });
    this.sqlite = { db, insert, exists, addClicks, write };
    return this.sqlite;
  }

  private async writePostgres(em: EntityManager, visits: NewVisit[]): Promise<number> {
    const counts = countByLink(visits);
    const rows: Array<{ id: number }> = await em.query(
      'SELECT "id" FROM "links" WHERE "id" = ANY($1::int[])',
      [[...counts.keys()]],
    );
    const existing = new Set(rows.map((r) => Number(r.id)));
    const kept = visits.filter((v) => existing.has(v.link_id));
    if (kept.length === 0) {
      return 0;
    }
    // One array per column and unnest(): 16 parameters whatever the batch size, instead of one
    // per value, which costs the driver far less.
    const columns = VISIT_COLUMNS.map((column) =>
      kept.map((visit) => dbParam(visit[column], true)),
    );
    const arrays = VISIT_COLUMNS.map((column, i) => `$${i + 1}::${POSTGRES_ARRAY_TYPES[column]}`);
    await em.query(
      `INSERT INTO "visits" (${COLUMN_LIST}) SELECT * FROM unnest(${arrays.join(', ')})`,
      columns,
    );
    for (const [linkId, count] of counts) {
      if (existing.has(linkId)) {
        await em.query('UPDATE "links" SET "clicks" = "clicks" + $1 WHERE "id" = $2', [
          count,
          linkId,
        ]);
      }
    }
    return kept.length;
  }
}
