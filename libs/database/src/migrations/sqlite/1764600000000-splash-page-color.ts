import { MigrationInterface, QueryRunner } from 'typeorm';

/** `splash_pages.color`, the accent colour of the page (its continue button). */
export class SplashPageColor1764600000000 implements MigrationInterface {
  name = 'SplashPageColor1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "splash_pages" ADD COLUMN "color" varchar(7) NOT NULL DEFAULT ('#2f5bea')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "splash_pages" DROP COLUMN "color"`);
  }
}
