import { MigrationInterface, QueryRunner } from 'typeorm';

/** Teams and their members (invitations until accepted). */
export class Teams1764100000000 implements MigrationInterface {
  name = 'Teams1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "teams" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "name" character varying(64) NOT NULL, "datetime" TIMESTAMP NOT NULL, "last_datetime" TIMESTAMP, CONSTRAINT "PK_7e5523774a38b08a6236d322403" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_5dd7d34e6410bba0db7bcc1e04" ON "teams" ("user_id")`);
    await q.query(
      `CREATE TABLE "team_members" ("id" SERIAL NOT NULL, "team_id" integer NOT NULL, "user_id" integer, "user_email" character varying(254) NOT NULL, "access_read" boolean NOT NULL DEFAULT true, "access_create" boolean NOT NULL DEFAULT false, "access_update" boolean NOT NULL DEFAULT false, "access_delete" boolean NOT NULL DEFAULT false, "status" integer NOT NULL DEFAULT '0', "datetime" TIMESTAMP NOT NULL, "last_datetime" TIMESTAMP, CONSTRAINT "PK_ca3eae89dcf20c9fd95bf7460aa" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_fdad7d5768277e60c40e01cdce" ON "team_members" ("team_id")`);
    await q.query(`CREATE INDEX "IDX_c2bf4967c8c2a6b845dadfbf3d" ON "team_members" ("user_id")`);
    await q.query(`CREATE INDEX "IDX_9ec14ef360d060a4dad5ce5880" ON "team_members" ("user_email")`);
    await q.query(
      `CREATE UNIQUE INDEX "IDX_57d367e5dbc2b1c66d66ac48a8" ON "team_members" ("team_id", "user_email")`,
    );
    await q.query(
      `ALTER TABLE "teams" ADD CONSTRAINT "FK_5dd7d34e6410bba0db7bcc1e045" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "team_members" ADD CONSTRAINT "FK_fdad7d5768277e60c40e01cdcea" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "team_members" ADD CONSTRAINT "FK_c2bf4967c8c2a6b845dadfbf3d4" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "team_members" DROP CONSTRAINT "FK_c2bf4967c8c2a6b845dadfbf3d4"`);
    await q.query(`ALTER TABLE "team_members" DROP CONSTRAINT "FK_fdad7d5768277e60c40e01cdcea"`);
    await q.query(`ALTER TABLE "teams" DROP CONSTRAINT "FK_5dd7d34e6410bba0db7bcc1e045"`);
    await q.query(`DROP INDEX "IDX_57d367e5dbc2b1c66d66ac48a8"`);
    await q.query(`DROP INDEX "IDX_9ec14ef360d060a4dad5ce5880"`);
    await q.query(`DROP INDEX "IDX_c2bf4967c8c2a6b845dadfbf3d"`);
    await q.query(`DROP INDEX "IDX_fdad7d5768277e60c40e01cdce"`);
    await q.query(`DROP TABLE "team_members"`);
    await q.query(`DROP INDEX "IDX_5dd7d34e6410bba0db7bcc1e04"`);
    await q.query(`DROP TABLE "teams"`);
  }
}
