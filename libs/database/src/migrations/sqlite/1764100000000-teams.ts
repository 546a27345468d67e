import { MigrationInterface, QueryRunner } from 'typeorm';

/** Teams and their members (invitations until accepted). */
export class Teams1764100000000 implements MigrationInterface {
  name = 'Teams1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "teams" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "name" varchar(64) NOT NULL, "datetime" datetime NOT NULL, "last_datetime" datetime, CONSTRAINT "FK_5dd7d34e6410bba0db7bcc1e045" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_5dd7d34e6410bba0db7bcc1e04" ON "teams" ("user_id")`);
    await q.query(
      `CREATE TABLE "team_members" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "team_id" integer NOT NULL, "user_id" integer, "user_email" varchar(254) NOT NULL, "access_read" boolean NOT NULL DEFAULT (1), "access_create" boolean NOT NULL DEFAULT (0), "access_update" boolean NOT NULL DEFAULT (0), "access_delete" boolean NOT NULL DEFAULT (0), "status" integer NOT NULL DEFAULT (0), "datetime" datetime NOT NULL, "last_datetime" datetime, CONSTRAINT "FK_fdad7d5768277e60c40e01cdcea" FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_c2bf4967c8c2a6b845dadfbf3d4" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_fdad7d5768277e60c40e01cdce" ON "team_members" ("team_id")`);
    await q.query(`CREATE INDEX "IDX_c2bf4967c8c2a6b845dadfbf3d" ON "team_members" ("user_id")`);
    await q.query(`CREATE INDEX "IDX_9ec14ef360d060a4dad5ce5880" ON "team_members" ("user_email")`);
    await q.query(
      `CREATE UNIQUE INDEX "IDX_57d367e5dbc2b1c66d66ac48a8" ON "team_members" ("team_id", "user_email")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_57d367e5dbc2b1c66d66ac48a8"`);
    await q.query(`DROP INDEX "IDX_9ec14ef360d060a4dad5ce5880"`);
    await q.query(`DROP INDEX "IDX_c2bf4967c8c2a6b845dadfbf3d"`);
    await q.query(`DROP INDEX "IDX_fdad7d5768277e60c40e01cdce"`);
    await q.query(`DROP TABLE "team_members"`);
    await q.query(`DROP INDEX "IDX_5dd7d34e6410bba0db7bcc1e04"`);
    await q.query(`DROP TABLE "teams"`);
  }
}
