import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Link previews and destination health (issue 38): the preview fields a fetcher sees, and the
 * result of the destination checks. Existing links start with no preview and status 'unknown'.
 */
export class LinkPreviewsHealth1765730000000 implements MigrationInterface {
  name = 'LinkPreviewsHealth1765730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "links" ADD "preview_title" character varying(120)`);
    await q.query(`ALTER TABLE "links" ADD "preview_description" character varying(300)`);
    await q.query(`ALTER TABLE "links" ADD "preview_image" character varying(255)`);
    await q.query(
      `ALTER TABLE "links" ADD "destination_status" character varying(16) NOT NULL DEFAULT 'unknown'`,
    );
    await q.query(`ALTER TABLE "links" ADD "destination_status_code" integer`);
    await q.query(`ALTER TABLE "links" ADD "destination_checked_datetime" TIMESTAMP`);
    await q.query(`ALTER TABLE "links" ADD "destination_failures" integer NOT NULL DEFAULT '0'`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const column of [
      'destination_failures',
      'destination_checked_datetime',
      'destination_status_code',
      'destination_status',
      'preview_image',
      'preview_description',
      'preview_title',
    ]) {
      await q.query(`ALTER TABLE "links" DROP COLUMN "${column}"`);
    }
  }
}
