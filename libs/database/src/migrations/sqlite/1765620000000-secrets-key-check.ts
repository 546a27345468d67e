import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `secrets_key_check`: the check value of the secrets key (one row, written at the first start
 * with this version, not here: a migration does not know the key).
 */
export class SecretsKeyCheck1765620000000 implements MigrationInterface {
  name = 'SecretsKeyCheck1765620000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "secrets_key_check" ("id" integer PRIMARY KEY NOT NULL, "check_value" varchar(64) NOT NULL, "datetime" datetime NOT NULL)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "secrets_key_check"`);
  }
}
