import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bots counted apart and QR scans tracked (issue 38): `visits.bot` (the bot family of a bot's
 * visit, null for a visitor's) and `visits.qr_code_id` (the QR code a scan came through),
 * `links.bot_clicks`, and on `qr_codes` the link its scan marker counts on and its `scans`.
 * Existing rows are visitors' visits (bots were not recorded before) and codes without a marker:
 * they get the marker on their next update.
 */
export class BotsAndScans1765720000000 implements MigrationInterface {
  name = 'BotsAndScans1765720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "visits" ADD "bot" character varying(32)`);
    await q.query(`ALTER TABLE "visits" ADD "qr_code_id" integer`);
    await q.query(`ALTER TABLE "links" ADD "bot_clicks" bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE "qr_codes" ADD "link_id" integer`);
    await q.query(`ALTER TABLE "qr_codes" ADD "scans" bigint NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "qr_codes" DROP COLUMN "scans"`);
    await q.query(`ALTER TABLE "qr_codes" DROP COLUMN "link_id"`);
    await q.query(`ALTER TABLE "links" DROP COLUMN "bot_clicks"`);
    await q.query(`ALTER TABLE "visits" DROP COLUMN "qr_code_id"`);
    await q.query(`ALTER TABLE "visits" DROP COLUMN "bot"`);
  }
}
