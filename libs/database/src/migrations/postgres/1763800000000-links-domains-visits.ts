import { MigrationInterface, QueryRunner } from 'typeorm';

export class LinksDomainsVisits1763800000000 implements MigrationInterface {
  name = 'LinksDomainsVisits1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "domains" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "scheme" character varying(8) NOT NULL DEFAULT 'https://', "host" character varying(253) NOT NULL, "custom_index_url" character varying(2048) NOT NULL DEFAULT '', "custom_not_found_url" character varying(2048) NOT NULL DEFAULT '', "is_enabled" boolean NOT NULL DEFAULT false, "verification_token" character varying(64) NOT NULL, "verified_datetime" TIMESTAMP, "datetime" TIMESTAMP NOT NULL, "last_datetime" TIMESTAMP, CONSTRAINT "PK_05a6b087662191c2ea7f7ddfc4d" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_d99decb465db46160d3d6dcc93" ON "domains" ("user_id")`);
    await q.query(`CREATE INDEX "IDX_7f1bc54f0ab0c3a62c69c800ee" ON "domains" ("host")`);
    await q.query(
      `CREATE UNIQUE INDEX "IDX_324235b6cb65c48726b80f2542" ON "domains" ("user_id", "host")`,
    );
    await q.query(
      `CREATE TABLE "links" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "project_id" integer, "domain_id" integer NOT NULL DEFAULT '0', "type" character varying(16) NOT NULL, "url" character varying(64) NOT NULL, "location_url" character varying(2048), "settings" text NOT NULL, "password_hash" character varying(255), "clicks" integer NOT NULL DEFAULT '0', "is_enabled" boolean NOT NULL DEFAULT true, "start_date" TIMESTAMP, "end_date" TIMESTAMP, "datetime" TIMESTAMP NOT NULL, "last_datetime" TIMESTAMP, CONSTRAINT "PK_ecf17f4a741d3c5ba0b4c5ab4b6" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_9f8dea86e48a7216c4f5369c1e" ON "links" ("user_id")`);
    await q.query(`CREATE INDEX "IDX_7b20f5b7cf1448c6040524650d" ON "links" ("project_id")`);
    await q.query(
      `CREATE UNIQUE INDEX "IDX_674dd29c3b2b592f1ee2077b0a" ON "links" ("domain_id", "url")`,
    );
    await q.query(
      `CREATE TABLE "visits" ("id" SERIAL NOT NULL, "link_id" integer NOT NULL, "datetime" TIMESTAMP NOT NULL, "referrer_host" character varying(253), "referrer_path" character varying(512), "utm_source" character varying(128), "utm_medium" character varying(128), "utm_campaign" character varying(128), "continent_code" character varying(2), "country_code" character varying(2), "city_name" character varying(128), "os_name" character varying(64), "browser_name" character varying(64), "device_type" character varying(16), "browser_language" character varying(16), "is_unique" boolean NOT NULL, "visitor_hash" character varying(32) NOT NULL, CONSTRAINT "PK_0b0b322289a41015c6ea4e8bf30" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_76c23c1cc6fe179d1038f56735" ON "visits" ("link_id", "datetime")`,
    );
    await q.query(
      `ALTER TABLE "domains" ADD CONSTRAINT "FK_d99decb465db46160d3d6dcc935" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "links" ADD CONSTRAINT "FK_9f8dea86e48a7216c4f5369c1e4" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "links" ADD CONSTRAINT "FK_7b20f5b7cf1448c6040524650d2" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "visits" ADD CONSTRAINT "FK_0b7160aebe80e9eda1b0a1f49bc" FOREIGN KEY ("link_id") REFERENCES "links"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "visits"`);
    await q.query(`DROP TABLE "links"`);
    await q.query(`DROP TABLE "domains"`);
  }
}
