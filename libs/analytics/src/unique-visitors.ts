import { Inject, Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { DateTimeTexts } from '@app/database/db-values';
import type { NewVisit } from '@app/database/rollups/visit-columns';
import { REDIS } from '@app/redis/redis.module';

const UNIQUE_TTL_SECONDS = 26 * 3600;
const LOCAL_UNIQUE_LIMIT = 2_000_000;

/** Tells a visitor's first visit of a link in a day from the ones after it. */
@Injectable()
export class UniqueVisitors {
  private readonly logger = new Logger(UniqueVisitors.name);
  private uniqueDay = '';
  private readonly seenToday = new Set<string>();
  private readonly times = new DateTimeTexts();

  constructor(@Inject(REDIS) private readonly redis: Redis | null) {}

  /**
   * A visit is unique when its visitor hash (per day, link, IP and user agent) was not seen
   * before today: in Redis when configured (so all instances agree), else in this process.
   */
  async mark(all: NewVisit[]): Promise<void> {
    // A bot's visit is never a unique visitor.
    const rows = all.some((row) => row.bot !== null) ? all.filter((row) => row.bot === null) : all;
    if (this.redis && this.redis.status === 'ready') {
      try {
        const pipeline = this.redis.pipeline();
        for (const row of rows) {
          pipeline.set(`linkdock:uv:${row.visitor_hash}`, '1', 'EX', UNIQUE_TTL_SECONDS, 'NX');
        }
        const results = (await pipeline.exec()) ?? [];
        rows.forEach((row, i) => {
          row.is_unique = results[i]?.[1] === 'OK';
        });
        return;
      } catch (error) {
        this.logger.warn(
          `Unique-visitor check in Redis failed, using this process: ${String(error)}`,
        );
      }
    }
    for (const row of rows) {
      const day = this.times.utcDay(row.datetime.getTime());
      if (day !== this.uniqueDay) {
        this.uniqueDay = day;
        this.seenToday.clear();
      }
      if (this.seenToday.size >= LOCAL_UNIQUE_LIMIT) {
        this.seenToday.clear();
      }
      row.is_unique = !this.seenToday.has(row.visitor_hash);
      this.seenToday.add(row.visitor_hash);
    }
  }
}
