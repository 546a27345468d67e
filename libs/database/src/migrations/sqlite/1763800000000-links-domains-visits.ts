import { MigrationInterface, QueryRunner } from 'typeorm';

export class LinksDomainsVisits1763800000000 implements MigrationInterface {
  name = 'LinksDomainsVisits1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "domains" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "scheme" varchar(8) NOT NULL DEFAULT ('https://'), "host" varchar(253) NOT NULL, "custom_index_url" varchar(2048) NOT NULL DEFAULT (''), "custom_not_found_url" varchar(2048) NOT NULL DEFAULT (''), "is_enabled" boolean NOT NULL DEFAULT (0), "verification_token" varchar(64) NOT NULL, "verified_datetime" datetime, "datetime" datetime NOT NULL, "last_datetime" datetime, CONSTRAINT "FK_d99decb465db46160d3d6dcc935" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_d99decb465db46160d3d6dcc93" ON "domains" ("user_id")`);
    await q.query(`CREATE INDEX "IDX_7f1bc54f0ab0c3a62c69c800ee" ON "domains" ("host")`);
    await q.query(
      `CREATE UNIQUE INDEX "IDX_324235b6cb65c48726b80f2542" ON "domains" ("user_id", "host")`,
    );
    await q.query(
      `CREATE TABLE "links" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "project_id" integer, "domain_id" integer NOT NULL DEFAULT (0), "type" varchar(16) NOT NULL, "url" varchar(64) NOT NULL, "location_url" varchar(2048), "settings" text NOT NULL, "password_hash" varchar(255), "clicks" integer NOT NULL DEFAULT (0), "is_enabled" boolean NOT NULL DEFAULT (1), "start_date" datetime, "end_date" datetime, "datetime" datetime NOT NULL, "last_datetime" datetime, CONSTRAINT "FK_9f8dea86e48a7216c4f5369c1e4" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_7b20f5b7cf1448c6040524650d2" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE SET NULL ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_9f8dea86e48a7216c4f5369c1e" ON "links" ("user_id")`);
    await q.query(`CREATE INDEX "IDX_7b20f5b7cf1448c6040524650d" ON "links" ("project_id")`);
    await q.query(
      `CREATE UNIQUE INDEX "IDX_674dd29c3b2b592f1ee2077b0a" ON "links" ("domain_id", "url")`,
    );
    await q.query(
      `CREATE TABLE "visits" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "link_id" integer NOT NULL, "datetime" datetime NOT NULL, "referrer_host" varchar(253), "referrer_path" varchar(512), "utm_source" varchar(128), "utm_medium" varchar(128), "utm_campaign" varchar(128), "continent_code" varchar(2), "country_code" varchar(2), "city_name" varchar(128), "os_name" varchar(64), "browser_name" varchar(64), "device_type" varchar(16), "browser_language" varchar(16), "is_unique" boolean NOT NULL, "visitor_hash" varchar(32) NOT NULL, CONSTRAINT "FK_0b7160aebe80e9eda1b0a1f49bc" FOREIGN KEY ("link_id") REFERENCES "links" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(
      `CREATE INDEX "IDX_76c23c1cc6fe179d1038f56735" ON "visits" ("link_id", "datetime")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_76c23c1cc6fe179d1038f56735"`);
    await q.query(`DROP TABLE "visits"`);
    await q.query(`DROP INDEX "IDX_674dd29c3b2b592f1ee2077b0a"`);
    await q.query(`DROP INDEX "IDX_7b20f5b7cf1448c6040524650d"`);
    await q.query(`DROP INDEX "IDX_9f8dea86e48a7216c4f5369c1e"`);
    await q.query(`DROP TABLE "links"`);
    await q.query(`DROP INDEX "IDX_324235b6cb65c48726b80f2542"`);
    await q.query(`DROP INDEX "IDX_7f1bc54f0ab0c3a62c69c800ee"`);
    await q.query(`DROP INDEX "IDX_d99decb465db46160d3d6dcc93"`);
    await q.query(`DROP TABLE "domains"`);
  }
}
