import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Inserts one row and returns its id. `save` does the same and then, on SQLite (which TypeORM
 * does not let return values from an INSERT), reads back every column that has a default with a
 * query built and prepared anew each time: a third of the statements of a link create. Callers
 * that need the row use the values they gave, plus this id.
 */
export async function insertRow<T extends ObjectLiteral>(
  em: EntityManager,
  target: EntityTarget<T>,
  values: T,
): Promise<number> {
  const insert = em.createQueryBuilder().insert().into(target).values(values).updateEntity(false);
  if (em.connection.options.type === 'postgres') {
    const result = await insert.returning('"id"').execute();
    return Number((result.raw as Array<{ id: number | string }>)[0].id);
  }
  // better-sqlite3 answers an INSERT with its rowid (BetterSqlite3QueryRunner: lastInsertRowid).
  const result = await insert.execute();
  return Number(result.raw);
}
