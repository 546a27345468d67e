import type { EntityTarget, ObjectLiteral } from 'typeorm';
import type { Db } from './db';

/**
 * Inserts one row and returns its id. `save` does the same and then, on SQLite (which TypeORM
 * does not let return values from an INSERT), reads back every column that has a default with a
 * query built and prepared anew each time: a third of the statements of a link create. Callers
 * that need the row use the values they gave, plus this id. Runs in the open write.
 */
export async function insertRow<T extends ObjectLiteral>(
  db: Db,
  target: EntityTarget<T>,
  values: T,
): Promise<number> {
  const insert = db.manager
    .createQueryBuilder()
    .insert()
    .into(target)
    .values(values)
    .updateEntity(false);
  if (db.dialect === 'postgres') {
    const result = await insert.returning('"id"').execute();
    return Number((result.raw as Array<{ id: number | string }>)[0].id);
  }
  // better-sqlite3 answers an INSERT with its rowid (BetterSqlite3QueryRunner: lastInsertRowid).
  const result = await insert.execute();
  return Number(result.raw);
}
