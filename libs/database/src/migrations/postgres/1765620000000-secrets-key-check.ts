import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `secrets_key_check`: the check value of the secrets key (one row, written at the first start
 * with this version, not here: a migration does not know the key).
 */
export class SecretsKeyCheck1765620000000 implements MigrationInterface {
  name = 'SecretsKeyCheck1765620000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "secrets_key_check" ("id" integer NOT NULL, "check_value" character varying(64) NOT NULL, "datetime" TIMESTAMP NOT NULL, CONSTRAINT "PK_5767c352e7a4ed5791b533e1124" PRIMARY KEY ("id"))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "secrets_key_check"`);
  }
}
