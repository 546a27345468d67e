import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type BetterSqlite3 from 'better-sqlite3';
import { EntityManager, Repository } from 'typeorm';
import { sqliteConnection, toDbDateTime } from '../db-values';
import { LinkOwner, rollUp } from '../rollups/rollups';
import { sqliteRollupWriter, writeRollupsPostgres } from '../rollups/rollup-writer';
import { type NewVisit, POSTGRES_ARRAY_TYPES, VISIT_COLUMNS } from '../rollups/visit-columns';
import { VisitEntity } from './visit.entity';

export type { NewVisit } from '../rollups/visit-columns';

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
  write: (visits: NewVisit[]) => number;
}

const OWNER_SELECT = `SELECT l."id" AS "id", l."user_id" AS "user_id", u."timezone" AS "timezone"
  FROM "links" l JOIN "users" u ON u."id" = l."user_id"`;

interface OwnerRow {
  id: number;
  user_id: number;
  timezone: string;
}

/**
 * Writes visits. Each batch is one transaction that inserts the rows, adds them to their links'
 * `clicks` with one UPDATE per link (not one per visit, so a popular link's row is not a hot
 * lock), and adds them to the statistics roll-ups (one upsert per roll-up row the batch touches).
 * Visits of links deleted meanwhile are dropped.
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
    const db = this.sqlite ? null : sqliteConnection(this.repo.manager.connection);
    if (db === null) {
      return this.sqlite;
    }
    const insert = db.prepare(
      `INSERT INTO "visits" (${COLUMN_LIST}) VALUES (${VISIT_COLUMNS.map(() => '?').join(', ')})`,
    );
    const owner = db.prepare(`${OWNER_SELECT} WHERE l."id" = ?`);
    const addClicks = db.prepare('UPDATE "links" SET "clicks" = "clicks" + ? WHERE "id" = ?');
    const rollups = sqliteRollupWriter(db);
    const write = db.transaction((batch: NewVisit[]): number => {
      const owners = new Map<number, LinkOwner>();
      let written = 0;
      for (const [linkId, count] of countByLink(batch)) {
        const row = owner.get(linkId) as OwnerRow | undefined;
        if (row === undefined) {
          continue;
        }
        owners.set(linkId, { userId: row.user_id, timeZone: row.timezone });
        addClicks.run(count, linkId);
        written += count;
      }
      for (const visit of batch) {
        if (owners.has(visit.link_id)) {
          insert.run(VISIT_COLUMNS.map((c) => dbParam(visit[c], false)));
        }
      }
      rollups.write(rollUp(batch, owners));
      return written;
    });
    this.sqlite = { db, write };
    return this.sqlite;
  }

  /**
   * Deletes raw visits older than `cutoff`, `chunk` rows per statement; the roll-ups keep their
   * counts. Ids grow with time, so the newest old id is found by binary search on the primary key
   * instead of an index on datetime that every insert would pay for. Returns the rows deleted.
   */
  async deleteOlderThan(cutoff: Date, chunk = 5000): Promise<number> {
    const db = this.repo.manager;
    const p = (n: number): string => (this.postgres ? `$${n}` : '?');
    const bounds: Array<{ low: unknown; high: unknown }> = await db.query(
      'SELECT MIN("id") AS "low", MAX("id") AS "high" FROM "visits"',
    );
    if (bounds[0]?.low === null || bounds[0]?.low === undefined) {
      return 0;
    }
    const at = toDbDateTime(cutoff);
    const isOld = async (id: number): Promise<boolean> => {
      const rows: unknown[] = await db.query(
        `SELECT 1 FROM "visits" WHERE "id" = (SELECT MIN("id") FROM "visits" WHERE "id" >= ${p(1)}) AND "datetime" < ${p(2)}`,
        [id, at],
      );
      return rows.length > 0;
    };
    let low = Number(bounds[0].low);
    let high = Number(bounds[0].high);
    if (!(await isOld(low))) {
      return 0;
    }
    while (low < high) {
      const middle = Math.floor((low + high + 1) / 2);
      if (await isOld(middle)) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    let deleted = 0;
    let from = Number(bounds[0].low);
    const runner = db.connection.createQueryRunner();
    try {
      while (from <= low) {
        const to = Math.min(from + chunk - 1, low);
        const result = await runner.query(
          `DELETE FROM "visits" WHERE "id" >= ${p(1)} AND "id" <= ${p(2)} AND "datetime" < ${p(3)}`,
          [from, to, at],
          true,
        );
        deleted += result.affected ?? 0;
        from = to + 1;
      }
    } finally {
      await runner.release();
    }
    return deleted;
  }

  private get postgres(): boolean {
    return this.repo.manager.connection.options.type === 'postgres';
  }

  private async writePostgres(em: EntityManager, visits: NewVisit[]): Promise<number> {
    const counts = countByLink(visits);
    const rows: OwnerRow[] = await em.query(`${OWNER_SELECT} WHERE l."id" = ANY($1::int[])`, [
      [...counts.keys()].sort((a, b) => a - b),
    ]);
    const owners = new Map<number, LinkOwner>(
      rows.map((r) => [Number(r.id), { userId: Number(r.user_id), timeZone: r.timezone }]),
    );
    const kept = visits.filter((v) => owners.has(v.link_id));
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
    // In link order, so that concurrent writers take the rows' locks in the same order.
    for (const [linkId, count] of [...counts].sort((a, b) => a[0] - b[0])) {
      if (owners.has(linkId)) {
        await em.query('UPDATE "links" SET "clicks" = "clicks" + $1 WHERE "id" = $2', [
          count,
          linkId,
        ]);
      }
    }
    await writeRollupsPostgres(em, rollUp(kept, owners));
    return kept.length;
  }
}
