import type { UpsertRows, UpsertTarget } from '../upsert-rows';

/**
 * One INSERT … SELECT FROM unnest() … ON CONFLICT per table, inside the caller's transaction: one
 * array per column, whatever the number of rows.
 */
export async function writeUpsertsPostgres(
  q: UpsertTarget,
  batches: readonly UpsertRows[],
): Promise<void> {
  for (const batch of batches) {
    if (batch.count === 0) continue;
    const columns = batch.types.map(() => new Array<unknown>(batch.count));
    const row: unknown[] = [];
    for (let i = 0; i < batch.count; i += 1) {
      row.length = 0;
      batch.values(i, row);
      for (let c = 0; c < columns.length; c += 1) columns[c][i] = row[c];
    }
    const arrays = batch.types.map((type, i) => `$${i + 1}::${type}[]`);
    await q.query(batch.statement(`SELECT * FROM unnest(${arrays.join(', ')})`), columns);
  }
}
