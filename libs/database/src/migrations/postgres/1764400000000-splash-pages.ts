import { MigrationInterface, QueryRunner } from 'typeorm';

/** Splash pages, and `links.splash_page_id` (SET NULL when the page is deleted). */
export class SplashPages1764400000000 implements MigrationInterface {
  name = 'SplashPages1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "splash_pages" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "name" character varying(64) NOT NULL, "title" character varying(256), "description" character varying(2048), "link_unlock_seconds" integer NOT NULL DEFAULT '5', "auto_redirect" boolean NOT NULL DEFAULT false, "settings" text NOT NULL, "logo" character varying(128), "favicon" character varying(128), "opengraph" character varying(128), "datetime" TIMESTAMP NOT NULL, "last_datetime" TIMESTAMP, CONSTRAINT "PK_498114120cd04bcf331ec13f5eb" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_b0e1438fe1001c5927b1ed41ed" ON "splash_pages" ("user_id")`);
    await q.query(`ALTER TABLE "links" ADD "splash_page_id" integer`);
    await q.query(`CREATE INDEX "IDX_b73fbf35dd65c91ebad2fa58c8" ON "links" ("splash_page_id")`);
    await q.query(
      `ALTER TABLE "splash_pages" ADD CONSTRAINT "FK_b0e1438fe1001c5927b1ed41edd" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "links" ADD CONSTRAINT "FK_b73fbf35dd65c91ebad2fa58c89" FOREIGN KEY ("splash_page_id") REFERENCES "splash_pages"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "links" DROP CONSTRAINT "FK_b73fbf35dd65c91ebad2fa58c89"`);
    await q.query(`ALTER TABLE "splash_pages" DROP CONSTRAINT "FK_b0e1438fe1001c5927b1ed41edd"`);
    await q.query(`DROP INDEX "IDX_b73fbf35dd65c91ebad2fa58c8"`);
    await q.query(`ALTER TABLE "links" DROP COLUMN "splash_page_id"`);
    await q.query(`DROP INDEX "IDX_b0e1438fe1001c5927b1ed41ed"`);
    await q.query(`DROP TABLE "splash_pages"`);
  }
}
