import { MigrationInterface, QueryRunner } from 'typeorm';

/** At most one enabled domain per host, enforced by the database (a partial unique index). */
export class DomainsEnabledHost1763850000000 implements MigrationInterface {
  name = 'DomainsEnabledHost1763850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE UNIQUE INDEX "UQ_domains_enabled_host" ON "domains" ("host") WHERE "is_enabled" = true`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "UQ_domains_enabled_host"`);
  }
}
