import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Db } from './db';
import { sqliteWriteLock } from './sqlite/sqlite-write-lock';

@Entity('notes')
class NoteEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: String }) text!: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`${Db.name} on SQLite`, () => {
  let ds: DataSource;
  let db: Db;

  beforeEach(async () => {
    ds = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [NoteEntity],
      synchronize: true,
    });
    await ds.initialize();
    db = new Db(ds);
  });

  afterEach(() => ds.destroy());

  async function texts(): Promise<string[]> {
    return (await ds.getRepository(NoteEntity).find({ order: { text: 'ASC' } })).map((n) => n.text);
  }

  const insert = (text: string) => db.repository(NoteEntity).insert({ text });

  it('is needed: without it, two transactions begun at once on the one connection both fail', async () => {
    const results = await Promise.allSettled([
      ds.manager.transaction(async (em) => {
        await em.insert(NoteEntity, { text: 'a' });
        await pause(10);
      }),
      ds.manager.transaction(async (em) => {
        await pause(2);
        await em.insert(NoteEntity, { text: 'b' });
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await texts()).not.toEqual(['a', 'b']);
  });

  it('says which dialect runs', () => {
    expect(db.dialect).toBe('sqlite');
  });

  it('lets writes begun at once (different requests) take turns, each committed', async () => {
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((text, i) =>
        db.write(async () => {
          await pause(4 - i);
          await insert(text);
          await pause(i);
        }),
      ),
    );
    expect(await texts()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('rolls back only the write that failed, and the next write still gets its turn', async () => {
    const results = await Promise.allSettled([
      db.write(async () => {
        await insert('kept');
        await pause(5);
      }),
      db.write(async () => {
        await insert('lost');
        throw new Error('refused');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    await db.write(() => insert('after'));
    expect(await texts()).toEqual(['after', 'kept']);
  });

  it('runs a write begun inside a write as part of it, without waiting for itself', async () => {
    await db.write(async () => {
      await insert('outer');
      await db.write(() => insert('inner'));
    });
    expect(await texts()).toEqual(['inner', 'outer']);
    await expect(
      db.write(async () => {
        await insert('undone outer');
        await db.write(async () => {
          await insert('undone inner');
          throw new Error('inner fails');
        });
      }),
    ).rejects.toThrow('inner fails');
    expect(await texts()).toEqual(['inner', 'outer']);
  });

  it("gives the open write's manager inside a write and the data source's outside", async () => {
    expect(db.manager).toBe(ds.manager);
    expect(db.writing).toBe(false);
    await db.write(() => {
      expect(db.writing).toBe(true);
      expect(db.manager.queryRunner?.isTransactionActive).toBe(true);
      return Promise.resolve();
    });
    expect(db.writing).toBe(false);
  });

  it('treats a callback scheduled inside a write and run after it as outside any write', async () => {
    let later: Promise<void> = Promise.resolve();
    await db.write(async () => {
      await insert('first');
      later = new Promise<void>((resolve, reject) =>
        setImmediate(() => {
          // Its own write (a turn of its own), not the finished one.
          expect(db.writing).toBe(false);
          db.write(() => insert('scheduled')).then(() => resolve(), reject);
        }),
      );
    });
    await later;
    expect(await texts()).toEqual(['first', 'scheduled']);
  });

  it('tryWriteNow writes when nothing else does, and answers null while another write is open', async () => {
    expect(await db.tryWriteNow(() => insert('now').then(() => 'done'))).toBe('done');
    let finish!: () => void;
    let begun!: () => void;
    const started = new Promise<void>((resolve) => (begun = resolve));
    const holding = db.write(async () => {
      await insert('holding');
      begun();
      await new Promise<void>((resolve) => (finish = resolve));
    });
    await started;
    // Another request's attempt, outside that write.
    expect(await db.tryWriteNow(() => insert('refused'))).toBeNull();
    finish();
    await holding;
    expect(await db.tryWriteNow(() => insert('later').then(() => 'done'))).toBe('done');
    expect(await texts()).toEqual(['holding', 'later', 'now']);
  });

  it('tryWriteNow answers null while the writer thread holds the write lock', async () => {
    const lock = sqliteWriteLock(ds);
    lock.acquireBlocking();
    try {
      expect(await db.tryWriteNow(() => insert('refused'))).toBeNull();
    } finally {
      lock.release();
    }
    expect(await texts()).toEqual([]);
  });

  it('makes writes wait while the writer thread holds the write lock, reads going on', async () => {
    const lock = sqliteWriteLock(ds);
    // Taken as the visit writer thread takes it (free, so it does not block here).
    lock.acquireBlocking();
    const done: string[] = [];
    const write = db.write(() => insert('in a write')).then(() => done.push('write'));
    const statement = db
      .prepared(`INSERT INTO "notes" ("text") VALUES (?)`)
      .all(['prepared'])
      .then(() => done.push('prepared'));
    const read = db
      .prepared(`SELECT COUNT(*) AS n FROM "notes"`)
      .all()
      .then(() => done.push('read'));
    await read;
    await pause(20);
    // Both writes wait for the lock, without blocking the event loop meanwhile.
    expect(done).toEqual(['read']);
    lock.release();
    await Promise.all([write, statement]);
    expect(done.slice(1).sort()).toEqual(['prepared', 'write']);
    expect(await texts()).toEqual(['in a write', 'prepared']);
  });

  it('reads and writes with prepared statements inside a write, seeing its rows', async () => {
    await db.write(async () => {
      await db.prepared(`INSERT INTO "notes" ("text") VALUES (?)`).all(['mine']);
      expect(await db.prepared(`SELECT "text" FROM "notes"`).all()).toEqual([{ text: 'mine' }]);
      expect(await db.execute(`DELETE FROM "notes" WHERE "text" = ?`, ['mine'])).toEqual({
        affected: 1,
        rows: [],
      });
    });
    expect(await texts()).toEqual([]);
  });
});
