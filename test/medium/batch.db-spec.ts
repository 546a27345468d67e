import { DataSource } from 'typeorm';
import { Db } from '@app/database';
import {
  type AddTo,
  addTo,
  type Batch,
  type BatchWriter,
  type InsertInto,
  insertInto,
  rowsById,
  type RowsById,
  select,
} from '@app/database/engine/batch';
import { batchWriterFor } from '@app/database/engine/for-dialect';
import { newTestService, TestService } from '@app/testing';

/** A table of the test's own: the steps name their tables and columns, whatever they are. */
const TABLE = 'batch_rows';
const INTO: InsertInto = {
  table: TABLE,
  columns: [
    { name: 'id', type: 'int' },
    { name: 'n', type: 'bigint' },
    { name: 'flag', type: 'boolean' },
    { name: 'label', type: 'varchar' },
  ],
};
const ADD: AddTo = {
  table: TABLE,
  keys: [{ name: 'id', type: 'int' }],
  adds: [{ name: 'n', type: 'bigint' }],
  returning: ['id', 'n'],
};
const BY_ID: RowsById = { select: `SELECT r."id", r."label" FROM "${TABLE}" r`, id: 'r."id"' };
const LOCKED: RowsById = { ...BY_ID, lock: 'r' };

interface Stored {
  id: number;
  n: number;
  flag: boolean;
  label: string | null;
}

/**
 * The engine's batch writes (engine/batch.ts) on each dialect: the steps write and read what they
 * say, in the order they say, and a batch is one transaction.
 */
describe('batch writes', () => {
  let s: TestService<Db>;
  let ds: DataSource;
  let db: Db;
  let writer: BatchWriter;
  beforeAll(async () => {
    s = await newTestService(Db);
    ds = s.dataSource;
    db = s.sut;
    writer = batchWriterFor(db, () => null);
    await ds.query(
      `CREATE TABLE "${TABLE}" ("id" integer PRIMARY KEY, "n" bigint NOT NULL, "flag" boolean NOT NULL, "label" varchar(20))`,
    );
  });
  afterAll(() => s?.close());
  beforeEach(() => ds.query(`DELETE FROM "${TABLE}"`));

  async function stored(): Promise<Stored[]> {
    const rows = await ds.query<Array<Record<string, unknown>>>(
      `SELECT * FROM "${TABLE}" ORDER BY "id"`,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      n: Number(r.n),
      flag: r.flag === true || r.flag === 1,
      label: r.label as string | null,
    }));
  }

  it('inserts rows, booleans included, and adds to them, returning the rows it updated', async () => {
    function* work(): Batch<Array<{ id: number | string; n: number | string }>> {
      yield* insertInto(INTO, [
        [1, 10, true, 'one'],
        [2, 20, false, null],
        [3, 30, true, 'three'],
      ]);
      // Id 9 is no row: nothing is updated for it, and nothing returned.
      return yield* addTo(ADD, [
        [3, 5],
        [9, 1],
        [1, 1],
      ]);
    }
    const updated = await writer.run(work);
    expect(updated.map((r) => [Number(r.id), Number(r.n)]).sort((a, b) => a[0] - b[0])).toEqual([
      [1, 11],
      [3, 35],
    ]);
    expect(await stored()).toEqual([
      { id: 1, n: 11, flag: true, label: 'one' },
      { id: 2, n: 20, flag: false, label: null },
      { id: 3, n: 35, flag: true, label: 'three' },
    ]);
  });

  it('reads rows by id once each, in id order, and with or without their lock', async () => {
    await writer.run(function* () {
      yield* insertInto(INTO, [
        [5, 0, false, 'five'],
        [2, 0, false, 'two'],
        [7, 0, false, 'seven'],
      ]);
    });
    const read = await writer.run(function* () {
      const plain = yield* rowsById<{ id: number | string; label: string }>(BY_ID, [7, 2, 4, 7, 5]);
      const locked = yield* rowsById<{ id: number | string; label: string }>(LOCKED, [5, 2]);
      const none = yield* rowsById(BY_ID, []);
      const [count] = yield* select<{ c: number | string }>(
        `SELECT COUNT(*) AS "c" FROM "${TABLE}"`,
      );
      return { plain, locked, none, count: Number(count.c) };
    });
    const named = (rows: Array<{ id: number | string; label: string }>) =>
      rows.map((r) => [Number(r.id), r.label]);
    expect({ ...read, plain: named(read.plain), locked: named(read.locked) }).toEqual({
      plain: [
        [2, 'two'],
        [5, 'five'],
        [7, 'seven'],
      ],
      locked: [
        [2, 'two'],
        [5, 'five'],
      ],
      none: [],
      count: 3,
    });
  });

  it('is one transaction: a batch that fails midway writes nothing, and the next one runs', async () => {
    await expect(
      writer.run(function* () {
        yield* insertInto(INTO, [[1, 1, true, 'kept?']]);
        yield* addTo(ADD, [[1, 1]]);
        throw new Error('midway');
      }),
    ).rejects.toThrow('midway');
    // A statement the database refuses (a duplicate key) rolls back the steps before it too.
    await expect(
      writer.run(function* () {
        yield* insertInto(INTO, [[2, 1, true, 'first']]);
        yield* insertInto(INTO, [[2, 1, true, 'again']]);
      }),
    ).rejects.toThrow();
    expect(await stored()).toEqual([]);
    expect(db.writing).toBe(false);

    await writer.run(function* () {
      yield* insertInto(INTO, [[3, 3, false, 'after']]);
    });
    expect(await stored()).toEqual([{ id: 3, n: 3, flag: false, label: 'after' }]);
  });

  it('says whether writes take turns, and on SQLite whether another transaction holds the connection', async () => {
    const sqlite = db.dialect === 'sqlite';
    expect(writer.serialised).toBe(sqlite);
    expect([db.concurrentWrites, db.onEventLoop]).toEqual([!sqlite, sqlite]);
    expect([db.bindable(true), db.bindable(false), db.bindable('x')]).toEqual(
      sqlite ? [1, 0, 'x'] : [true, false, 'x'],
    );
    expect(writer.busy()).toBe(false);
    await db.write(() => {
      expect(writer.busy()).toBe(sqlite);
      return Promise.resolve();
    });
    expect(writer.busy()).toBe(false);
  });
});
