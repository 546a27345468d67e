import { MigrationInterface } from 'typeorm';

/**
 * Counters as bigint on PostgreSQL. Nothing to do on SQLite, whose INTEGER columns hold 64-bit
 * values already (AppDataSource maps the entities' bigint to its `integer`); here so that both
 * dialects apply the same migrations.
 */
export class BigintCounters1764700000000 implements MigrationInterface {
  name = 'BigintCounters1764700000000';

  async up(): Promise<void> {}

  async down(): Promise<void> {}
}
