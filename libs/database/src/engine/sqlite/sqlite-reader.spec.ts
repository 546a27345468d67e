import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Column, DataSource, Entity, PrimaryGeneratedColumn, QueryFailedError } from 'typeorm';
import { builtThreadScript } from '@app/common/threads/built-script';
import { AppDataSource } from '../../data-source';
import { readCommitted, SqliteReader } from './sqlite-reader';

@Entity('notes')
class NoteEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: String }) text!: string;
}

function threadScript(): string {
  const script = builtThreadScript(__dirname, 'sqlite-reader.thread');
  if (script === null) throw new Error('no build of the thread: run `npm run build` first');
  return script;
}

describe(SqliteReader.name, () => {
  let dir: string;
  let source: DataSource;
  /** Reads that did not go through the thread. */
  let fallbacks: string[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkdock-reader-'));
    source = await new AppDataSource({
      type: 'better-sqlite3',
      database: join(dir, 'app.sqlite'),
      entities: [NoteEntity],
      synchronize: true,
      enableWAL: true,
    }).initialize();
    await source.manager.insert(NoteEntity, [{ text: 'one' }, { text: 'two' }]);
    fallbacks = [];
  });
  afterEach(async () => {
    if (source.isInitialized) await source.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const readerOf = (path = join(dir, 'app.sqlite')) =>
    new SqliteReader(path, threadScript(), (sql, parameters) => {
      fallbacks.push(sql);
      return source.query(sql, parameters);
    });

  it('reads committed rows in its thread, never a transaction open on the connection', async () => {
    const reader = readerOf();
    try {
      await source.transaction(async (em) => {
        await em.insert(NoteEntity, { text: 'not yet' });
        // The connection itself sees its open transaction's row; the thread does not.
        expect(await em.query('SELECT COUNT(*) AS n FROM notes')).toEqual([{ n: 3 }]);
        expect(await reader.query('SELECT COUNT(*) AS n FROM notes')).toEqual([{ n: 2 }]);
      });
      expect(
        await reader.query('SELECT id, text FROM notes WHERE id >= ? ORDER BY id', [2]),
      ).toEqual([
        { id: 2, text: 'two' },
        { id: 3, text: 'not yet' },
      ]);
      expect(fallbacks).toEqual([]);
    } finally {
      await reader.stop();
    }
  });

  it("fails as TypeORM's query fails: a QueryFailedError around the driver's error", async () => {
    const reader = readerOf();
    try {
      const sql = 'SELECT nope FROM notes';
      const error: unknown = await reader.query(sql).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryFailedError);
      expect(error).toMatchObject({
        query: sql,
        parameters: [],
        message: 'no such column: nope',
        driverError: { code: 'SQLITE_ERROR' },
      });
      // A write is refused, and changes nothing.
      await expect(reader.query("UPDATE notes SET text = 'x' RETURNING id")).rejects.toMatchObject({
        driverError: { code: 'SQLITE_READONLY' },
      });
      expect(await source.query('SELECT text FROM notes ORDER BY id')).toEqual([
        { text: 'one' },
        { text: 'two' },
      ]);
      await expect(reader.query("DELETE FROM notes WHERE text = 'one'")).rejects.toMatchObject({
        message: 'The SQLite reader runs only statements that return rows',
      });
      expect(fallbacks).toEqual([]);
    } finally {
      await reader.stop();
    }
  });

  it('reads on the fallback when its thread cannot open the file', async () => {
    const reader = readerOf(join(dir, 'missing.sqlite'));
    try {
      expect(await reader.query('SELECT text FROM notes WHERE id = ?', [1])).toEqual([
        { text: 'one' },
      ]);
      expect(await reader.query('SELECT COUNT(*) AS n FROM notes')).toEqual([{ n: 2 }]);
      expect(fallbacks).toEqual([
        'SELECT text FROM notes WHERE id = ?',
        'SELECT COUNT(*) AS n FROM notes',
      ]);
    } finally {
      await reader.stop();
    }
  });

  it('answers the reads sent before stop(), and sends later ones to the fallback', async () => {
    const reader = readerOf();
    const before = [1, 2].map((id) => reader.query('SELECT text FROM notes WHERE id = ?', [id]));
    const stopped = reader.stop();
    expect(await Promise.all(before)).toEqual([[{ text: 'one' }], [{ text: 'two' }]]);
    await stopped;
    expect(await reader.query('SELECT COUNT(*) AS n FROM notes')).toEqual([{ n: 2 }]);
    expect(fallbacks).toEqual(['SELECT COUNT(*) AS n FROM notes']);
  });

  it("is the data source's reader through readCommitted, stopped with the data source", async () => {
    await source.transaction(async (em) => {
      await em.insert(NoteEntity, { text: 'not yet' });
      expect(await readCommitted(source, 'SELECT COUNT(*) AS n FROM notes')).toEqual([{ n: 2 }]);
    });
    expect(await readCommitted(source, 'SELECT COUNT(*) AS n FROM notes')).toEqual([{ n: 3 }]);
    await source.destroy();
    await expect(readCommitted(source, 'SELECT 1')).rejects.toThrow();
  });

  it('reads on the connection itself for an in-memory database', async () => {
    const memory = await new AppDataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [NoteEntity],
      synchronize: true,
    }).initialize();
    try {
      await memory.transaction(async (em) => {
        await em.insert(NoteEntity, { text: 'seen' });
        // The same connection: its own open transaction's row is there.
        expect(await readCommitted(memory, 'SELECT text FROM notes')).toEqual([{ text: 'seen' }]);
      });
    } finally {
      await memory.destroy();
    }
  });
});
