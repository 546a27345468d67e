import type { EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { Db } from './db';

/** An INSERT of one entity's given columns: its SQL text and the columns of its parameters. */
interface InsertStatement {
  sql: string;
  columns: readonly ColumnMetadata[];
}

/** The statements built so far, per entity (of one data source, so of one dialect) and columns. */
const built = new WeakMap<EntityMetadata, Map<string, InsertStatement>>();

/**
 * Inserts one row and returns its id, with a fixed SQL text per entity and set of given columns
 * (`INSERT ... RETURNING "id"`, SQLite 3.35+ and PostgreSQL) run as a prepared statement
 * (Db.prepared): parsed and planned once per connection. TypeORM's insert builder built the SQL
 * again on every call (column lists, parameter names, escaping), and `save` then read back every
 * column with a default. Each value is converted by the driver's own `preparePersistentValue`
 * (datetimes, booleans, transformers), the call TypeORM's builder makes, so the row is the one
 * it would write. A column left undefined is not named and takes its default (the schema's, which
 * the entities agree with: test/schema.e2e-spec.ts). Callers that need the row use the values they gave,
 * plus this id. Runs in the open write, or in a write of its own.
 */
export async function insertRow<T extends ObjectLiteral>(
  db: Db,
  target: EntityTarget<T>,
  values: T,
): Promise<number> {
  const metadata = db.dataSource.getMetadata(target);
  const given = metadata.columns.filter(
    (c) => !c.isVirtual && c.getEntityValue(values) !== undefined,
  );
  const { sql, columns } = statementOf(db, metadata, given);
  const driver = db.dataSource.driver;
  const params = columns.map(
    (c): unknown => driver.preparePersistentValue(c.getEntityValue(values), c) as unknown,
  );
  const rows = await db.prepared(sql).all(params);
  return Number(rows[0].id);
}

function statementOf(
  db: Db,
  metadata: EntityMetadata,
  given: readonly ColumnMetadata[],
): InsertStatement {
  let byColumns = built.get(metadata);
  if (byColumns === undefined) {
    byColumns = new Map();
    built.set(metadata, byColumns);
  }
  const key = given.map((c) => c.databaseName).join(',');
  let statement = byColumns.get(key);
  if (statement === undefined) {
    statement = buildInsert(db, metadata, given);
    byColumns.set(key, statement);
  }
  return statement;
}

function buildInsert(
  db: Db,
  metadata: EntityMetadata,
  given: readonly ColumnMetadata[],
): InsertStatement {
  // Columns TypeORM fills itself on insert: a row without them would not be the one it writes.
  const filled = metadata.columns.find(
    (c) => c.isCreateDate || c.isUpdateDate || c.isVersion || c.generationStrategy === 'uuid',
  );
  if (filled !== undefined) {
    throw new Error(`insertRow does not fill ${metadata.tableName}.${filled.databaseName}`);
  }
  const primary = metadata.primaryColumns;
  if (primary.length !== 1 || primary[0].databaseName !== 'id') {
    throw new Error(`insertRow returns an "id"; ${metadata.tableName} has another key`);
  }
  const names = given.map((c) => `"${c.databaseName}"`).join(', ');
  const marks = given.map((_, i) => db.placeholder(i + 1)).join(', ');
  return {
    sql: `INSERT INTO "${metadata.tableName}" (${names}) VALUES (${marks}) RETURNING "id"`,
    columns: given,
  };
}
