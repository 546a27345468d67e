import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the event jobs remember: `links.expired_event_end_date` (the end date link.expired was
 * raised for) and `domains.verification_misses` (daily re-checks in a row without the record).
 */
export class EventJobs1764820000000 implements MigrationInterface {
  name = 'EventJobs1764820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "links" ADD "expired_event_end_date" TIMESTAMP`);
    // Links that ended before this release are not announced now, long after the fact.
    await q.query(
      `UPDATE "links" SET "expired_event_end_date" = "end_date" WHERE "end_date" <= CURRENT_TIMESTAMP`,
    );
    await q.query(`ALTER TABLE "domains" ADD "verification_misses" integer NOT NULL DEFAULT '0'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "domains" DROP COLUMN "verification_misses"`);
    await q.query(`ALTER TABLE "links" DROP COLUMN "expired_event_end_date"`);
  }
}
