import { MigrationInterface, QueryRunner } from 'typeorm';

const LINKS_COLUMNS = `"id", "user_id", "project_id", "domain_id", "type", "url", "location_url", "settings", "password_hash", "clicks", "is_enabled", "start_date", "end_date", "datetime", "last_datetime"`;
const LINKS_INDEXES = [
  `CREATE UNIQUE INDEX "IDX_674dd29c3b2b592f1ee2077b0a" ON "links" ("domain_id", "url")`,
  `CREATE INDEX "IDX_7b20f5b7cf1448c6040524650d" ON "links" ("project_id")`,
  `CREATE INDEX "IDX_9f8dea86e48a7216c4f5369c1e" ON "links" ("user_id")`,
];
const DROP_LINKS_INDEXES = [
  `DROP INDEX "IDX_674dd29c3b2b592f1ee2077b0a"`,
  `DROP INDEX "IDX_7b20f5b7cf1448c6040524650d"`,
  `DROP INDEX "IDX_9f8dea86e48a7216c4f5369c1e"`,
];

/**
 * Splash pages, and `links.splash_page_id` (SET NULL when the page is deleted). SQLite cannot add
 * a foreign key to a table, so `links` is rebuilt; TypeORM runs migrations with foreign keys off,
 * so the rebuild does not cascade into `visits`.
 */
export class SplashPages1764400000000 implements MigrationInterface {
  name = 'SplashPages1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "splash_pages" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "name" varchar(64) NOT NULL, "title" varchar(256), "description" varchar(2048), "link_unlock_seconds" integer NOT NULL DEFAULT (5), "auto_redirect" boolean NOT NULL DEFAULT (0), "settings" text NOT NULL, "logo" varchar(128), "favicon" varchar(128), "opengraph" varchar(128), "datetime" datetime NOT NULL, "last_datetime" datetime, CONSTRAINT "FK_b0e1438fe1001c5927b1ed41edd" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_b0e1438fe1001c5927b1ed41ed" ON "splash_pages" ("user_id")`);
    for (const sql of DROP_LINKS_INDEXES) await q.query(sql);
    await q.query(
      `CREATE TABLE "temporary_links" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "project_id" integer, "domain_id" integer NOT NULL DEFAULT (0), "type" varchar(16) NOT NULL, "url" varchar(64) NOT NULL, "location_url" varchar(2048), "settings" text NOT NULL, "password_hash" varchar(255), "clicks" integer NOT NULL DEFAULT (0), "is_enabled" boolean NOT NULL DEFAULT (1), "start_date" datetime, "end_date" datetime, "datetime" datetime NOT NULL, "last_datetime" datetime, "splash_page_id" integer, CONSTRAINT "FK_7b20f5b7cf1448c6040524650d2" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE SET NULL ON UPDATE NO ACTION, CONSTRAINT "FK_9f8dea86e48a7216c4f5369c1e4" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_b73fbf35dd65c91ebad2fa58c89" FOREIGN KEY ("splash_page_id") REFERENCES "splash_pages" ("id") ON DELETE SET NULL ON UPDATE NO ACTION)`,
    );
    await q.query(
      `INSERT INTO "temporary_links"(${LINKS_COLUMNS}) SELECT ${LINKS_COLUMNS} FROM "links"`,
    );
    await q.query(`DROP TABLE "links"`);
    await q.query(`ALTER TABLE "temporary_links" RENAME TO "links"`);
    for (const sql of LINKS_INDEXES) await q.query(sql);
    await q.query(`CREATE INDEX "IDX_b73fbf35dd65c91ebad2fa58c8" ON "links" ("splash_page_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_b73fbf35dd65c91ebad2fa58c8"`);
    for (const sql of DROP_LINKS_INDEXES) await q.query(sql);
    await q.query(
      `CREATE TABLE "temporary_links" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "project_id" integer, "domain_id" integer NOT NULL DEFAULT (0), "type" varchar(16) NOT NULL, "url" varchar(64) NOT NULL, "location_url" varchar(2048), "settings" text NOT NULL, "password_hash" varchar(255), "clicks" integer NOT NULL DEFAULT (0), "is_enabled" boolean NOT NULL DEFAULT (1), "start_date" datetime, "end_date" datetime, "datetime" datetime NOT NULL, "last_datetime" datetime, CONSTRAINT "FK_7b20f5b7cf1448c6040524650d2" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE SET NULL ON UPDATE NO ACTION, CONSTRAINT "FK_9f8dea86e48a7216c4f5369c1e4" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(
      `INSERT INTO "temporary_links"(${LINKS_COLUMNS}) SELECT ${LINKS_COLUMNS} FROM "links"`,
    );
    await q.query(`DROP TABLE "links"`);
    await q.query(`ALTER TABLE "temporary_links" RENAME TO "links"`);
    for (const sql of LINKS_INDEXES) await q.query(sql);
    await q.query(`DROP INDEX "IDX_b0e1438fe1001c5927b1ed41ed"`);
    await q.query(`DROP TABLE "splash_pages"`);
  }
}
