import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `notification_handlers.team_id`: the team through which a member created the handler, null when
 * the owner did. Handlers that exist already get null: nothing recorded how they were made, so
 * they count as the owner's (docs/teams.md says how to review them).
 */
export class HandlerTeam1765600000000 implements MigrationInterface {
  name = 'HandlerTeam1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "notification_handlers" ADD COLUMN "team_id" integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "notification_handlers" DROP COLUMN "team_id"`);
  }
}
