import type { ObjectLiteral, Repository } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { Db } from './db';
import type { PreparedQuery, Row } from './prepared-query';
import { sqliteBindable } from './sqlite/sqlite-connection';

type Param = string | number | boolean;

/**
 * Reads whole rows of one entity with a fixed SQL text, for the few reads that run on nearly every
 * API request (the caller's user row, a plan, the checks of a new link). TypeORM's find builds a
 * query builder, aliases every column and escapes the query again on each call, which costs more
 * than SQLite's own work for a lookup by key. The SQL here is built once, at boot, and each column
 * is converted by the driver's own `prepareHydratedValue` (dates, booleans, transformers), the
 * same call TypeORM makes, so the entity is the one `findOneBy` would return.
 *
 * Conditions are written with `?` for parameters; they become `$1`, `$2`... on PostgreSQL, where
 * they are named prepared statements (Db.prepared). Inside a write they read the write's rows.
 */
export class RowReader<T extends ObjectLiteral> {
  private readonly columns: readonly ColumnMetadata[];
  private readonly select: string;
  private readonly selectId: string;
  private readonly postgres: boolean;
  private readonly sql = new Map<string, PreparedQuery>();

  constructor(
    private readonly db: Db,
    private readonly repo: Repository<T>,
  ) {
    const meta = repo.metadata;
    if (meta.columns.some((c) => c.embeddedMetadata) || meta.childEntityMetadatas.length > 0) {
      throw new Error(`RowReader reads plain tables only; ${meta.tableName} is not one`);
    }
    // The columns TypeORM hydrates (RawSqlResultsToEntityTransformer): all but relations' virtual ones.
    this.columns = meta.columns.filter((c) => !c.isVirtual);
    this.postgres = db.dialect === 'postgres';
    this.select = `SELECT ${this.columns.map((c) => `"${c.databaseName}"`).join(', ')} FROM "${meta.tableName}"`;
    this.selectId = `SELECT "id" FROM "${meta.tableName}"`;
  }

  /** The first row matching `where` (ordered by nothing: use it on unique keys), or null. */
  async one(where: string, params: readonly Param[]): Promise<T | null> {
    const rows = await this.query(this.select, where, params);
    return rows.length === 0 ? null : this.hydrate(rows[0]);
  }

  /** The id of the first row matching `where`, or null: an existence check that reads one column. */
  async firstId(where: string, params: readonly Param[]): Promise<number | null> {
    const rows = await this.query(this.selectId, where, params);
    return rows.length === 0 ? null : Number(rows[0].id);
  }

  private query(select: string, where: string, params: readonly Param[]): Promise<Row[]> {
    const key = `${select === this.select ? '*' : 'id'} ${where}`;
    let statement = this.sql.get(key);
    if (statement === undefined) {
      let n = 0;
      const condition = this.postgres ? where.replace(/\?/g, () => `$${(n += 1)}`) : where;
      statement = this.db.prepared(`${select} WHERE ${condition} LIMIT 1`);
      this.sql.set(key, statement);
    }
    const values = this.postgres ? [...params] : params.map(sqliteBindable);
    return statement.all(values);
  }

  private hydrate(row: Row): T {
    return hydrateRow(this.repo, row, this.columns);
  }
}

/**
 * A row of `repo`'s table as read by plain SQL, made the entity TypeORM would return: each column
 * `row` has converted by the driver's own `prepareHydratedValue`. Other fields of `row` (a join's)
 * are left out.
 */
export function hydrateRow<T extends ObjectLiteral>(
  repo: Repository<T>,
  row: Row,
  columns: readonly ColumnMetadata[] = repo.metadata.columns.filter((c) => !c.isVirtual),
): T {
  const entity = repo.metadata.create() as T;
  const driver = repo.manager.connection.driver;
  for (const column of columns) {
    const value = row[column.databaseName];
    if (value !== undefined) {
      column.setEntityValue(entity, driver.prepareHydratedValue(value, column));
    }
  }
  return entity;
}
