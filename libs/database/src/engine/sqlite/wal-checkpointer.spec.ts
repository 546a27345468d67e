import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { AppDataSource } from '../../data-source';
import { SqliteWriteLock } from './sqlite-write-lock';
import { WalCheckpointer } from './wal-checkpointer';

@Entity('notes')
class NoteEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: String }) text!: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ROW = 'x'.repeat(10_000);

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    if (check()) return;
    await pause(10);
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe(WalCheckpointer.name, () => {
  let dir: string;
  let path: string;
  let db: Database.Database;
  let lock: SqliteWriteLock;
  let checkpointer: WalCheckpointer | null;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'linkdock-wal-'));
    path = join(dir, 'db.sqlite');
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    lock = new SqliteWriteLock();
    checkpointer = null;
  });
  afterEach(async () => {
    await checkpointer?.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const autocheckpoint = () => db.pragma('wal_autocheckpoint', { simple: true });
  const size = (file: string) => statSync(file).size;
  const insert = (count: number) => {
    const statement = db.prepare('INSERT INTO notes (text) VALUES (?)');
    for (let i = 0; i < count; i += 1) statement.run(ROW);
  };

  async function started(intervalMs = 20): Promise<WalCheckpointer> {
    const started = WalCheckpointer.start(db, path, lock, intervalMs);
    if (!started) throw new Error('no build of the thread: run `npm run build` first');
    await until(
      () => autocheckpoint() === 0,
      "the thread is ready and the connection's own checkpoints are off",
    );
    return started;
  }

  it('copies the log into the database file on its thread, and the log starts again while writes go on', async () => {
    checkpointer = await started();
    const before = size(path);
    let largestLog = 0;
    // 60 bursts of 10 commits, each commit about 3 pages: 6 MB in all. Each burst waits for a
    // checkpoint of the one before (only a checkpoint grows the database file), not for a fixed
    // time: on a busy machine the thread can miss its turns for longer than the bursts take.
    for (let burst = 0; burst < 60; burst += 1) {
      const copied = size(path);
      insert(10);
      largestLog = Math.max(largestLog, size(`${path}-wal`));
      await until(() => size(path) > copied, 'a checkpoint copied the burst');
    }
    await until(() => size(path) - before > 600 * ROW.length, 'the rows are in the database file');
    // Only a checkpoint writes the database file, and the connection's own are off.
    expect(autocheckpoint()).toBe(0);
    // The log was started again from its beginning: it never held all 6 MB.
    expect(largestLog).toBeLessThan((600 * ROW.length) / 2);
  });

  it('copies nothing while the write lock is held, then copies once it is free', async () => {
    checkpointer = await started();
    await lock.acquire();
    const before = size(path);
    insert(100);
    await pause(200);
    expect(size(path)).toBe(before);
    lock.release();
    await until(() => size(path) - before > 100 * ROW.length, 'the rows are in the database file');
  });

  it('gives checkpoints back to the connection when it stops, and copies what is left', async () => {
    checkpointer = await started(60_000);
    const before = size(path);
    insert(50);
    await checkpointer.stop();
    checkpointer = null;
    expect(autocheckpoint()).toBe(1000);
    expect(size(path) - before).toBeGreaterThan(50 * ROW.length);
  });

  it('leaves checkpoints to the connection when its thread cannot open the database', async () => {
    checkpointer = WalCheckpointer.start(db, join(dir, 'missing.sqlite'), lock);
    await pause(300);
    expect(autocheckpoint()).toBe(1000);
    insert(500);
    // SQLite's own checkpoints keep the log at about 1,000 pages.
    expect(size(`${path}-wal`)).toBeLessThan(500 * ROW.length);
  });

  it('is started and stopped with the app’s data source on a database file', async () => {
    const source = await new AppDataSource({
      type: 'better-sqlite3',
      database: join(dir, 'app.sqlite'),
      entities: [NoteEntity],
      synchronize: true,
      enableWAL: true,
    }).initialize();
    const connection = (source.driver as unknown as { databaseConnection: Database.Database })
      .databaseConnection;
    try {
      await until(
        () => connection.pragma('wal_autocheckpoint', { simple: true }) === 0,
        'the thread is ready',
      );
      await source.manager.transaction((em) => em.insert(NoteEntity, { text: 'kept' }));
    } finally {
      await source.destroy();
    }
    const reopened = new Database(join(dir, 'app.sqlite'), { readonly: true });
    expect(reopened.prepare('SELECT text FROM notes').all()).toEqual([{ text: 'kept' }]);
    reopened.close();
  });
});
