import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { toDbDateTime } from '../db-values';
import { Db } from '../engine/db';
import { VisitEntity } from './visit.entity';

/**
 * Raw visits as stored. @app/analytics writes them, with their roll-ups, one transaction per
 * batch; this deletes the old ones (visit retention).
 */
@Injectable()
export class VisitsRepository {
  constructor(
    @InjectRepository(VisitEntity) private readonly repo: Repository<VisitEntity>,
    private readonly db: Db,
  ) {}

  /**
   * Deletes raw visits older than `cutoff`, `chunk` rows per statement; the roll-ups keep their
   * counts. Ids grow with time, so the newest old id is found by binary search on the primary key
   * instead of an index on datetime that every insert would pay for. Returns the rows deleted.
   * Stops between chunks once `signal` is aborted.
   */
  async deleteOlderThan(cutoff: Date, chunk = 5000, signal?: AbortSignal): Promise<number> {
    const db = this.repo.manager;
    const p = (n: number): string => this.db.placeholder(n);
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
    while (from <= low && !signal?.aborted) {
      const to = Math.min(from + chunk - 1, low);
      // A write of its own each: other writes take their turns in between.
      const result = await this.db.execute(
        `DELETE FROM "visits" WHERE "id" >= ${p(1)} AND "id" <= ${p(2)} AND "datetime" < ${p(3)}`,
        [from, to, at],
      );
      deleted += result.affected;
      from = to + 1;
    }
    return deleted;
  }
}
