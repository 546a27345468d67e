import { MigrationInterface, QueryRunner } from 'typeorm';

/** `api_keys.scope`: `full` (every existing key) or `read` (GET requests only). */
export class ApiKeyScope1765100000000 implements MigrationInterface {
  name = 'ApiKeyScope1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "api_keys" ADD "scope" character varying(8) NOT NULL DEFAULT 'full'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "api_keys" DROP COLUMN "scope"`);
  }
}
