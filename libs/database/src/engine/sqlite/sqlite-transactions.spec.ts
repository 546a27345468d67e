import { DataSource, Entity, PrimaryGeneratedColumn, Column } from 'typeorm';
import { serializeSqliteTransactions } from './sqlite-transactions';
import { sqliteWriteLock } from './sqlite-write-lock';

@Entity('notes')
class NoteEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: String }) text!: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(serializeSqliteTransactions.name, () => {
  let ds: DataSource;

  async function open(serialize: boolean): Promise<DataSource> {
    const source = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [NoteEntity],
      synchronize: true,
    });
    await source.initialize();
    if (serialize) serializeSqliteTransactions(source);
    return source;
  }

  async function texts(): Promise<string[]> {
    return (await ds.getRepository(NoteEntity).find({ order: { text: 'ASC' } })).map((n) => n.text);
  }

  afterEach(() => ds?.destroy());

  it('is needed: without it, two transactions begun at once both fail', async () => {
    ds = await open(false);
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

  it('lets transactions begun at once take turns, each committed', async () => {
    ds = await open(true);
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((text, i) =>
        ds.manager.transaction(async (em) => {
          await pause(4 - i);
          await em.insert(NoteEntity, { text });
          await pause(i);
        }),
      ),
    );
    expect(await texts()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('rolls back only the transaction that failed', async () => {
    ds = await open(true);
    const results = await Promise.allSettled([
      ds.manager.transaction(async (em) => {
        await em.insert(NoteEntity, { text: 'kept' });
        await pause(5);
      }),
      ds.manager.transaction(async (em) => {
        await em.insert(NoteEntity, { text: 'lost' });
        throw new Error('refused');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(await texts()).toEqual(['kept']);
  });

  it('runs a transaction begun inside another as its savepoint, without waiting for itself', async () => {
    ds = await open(true);
    await ds.manager.transaction(async (em) => {
      await em.insert(NoteEntity, { text: 'outer' });
      // Through the data source's own manager, not `em`: still inside the outer transaction.
      await ds.manager.transaction((inner) => inner.insert(NoteEntity, { text: 'inner' }));
      await expect(
        ds.manager.transaction(async (inner) => {
          await inner.insert(NoteEntity, { text: 'undone' });
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
    });
    expect(await texts()).toEqual(['inner', 'outer']);
  });

  it('still recognises a nested transaction after an earlier one has ended and switched its context off', async () => {
    ds = await open(true);
    await ds.manager.transaction((em) => em.insert(NoteEntity, { text: 'first' }));
    // Two at once: the context stays on until both have settled.
    await Promise.all([
      ds.manager.transaction((em) => em.insert(NoteEntity, { text: 'second' })),
      ds.manager.transaction(async (em) => {
        await pause(5);
        await ds.manager.transaction((inner) => inner.insert(NoteEntity, { text: 'nested a' }));
        await em.insert(NoteEntity, { text: 'third' });
      }),
    ]);
    await ds.manager.transaction(async () => {
      await ds.manager.transaction((inner) => inner.insert(NoteEntity, { text: 'nested b' }));
    });
    expect(await texts()).toEqual(['first', 'nested a', 'nested b', 'second', 'third']);
  });

  it('keeps a repository save made while a transaction is open', async () => {
    ds = await open(true);
    const repo = ds.getRepository(NoteEntity);
    await repo.save({ text: 'first' });
    const results = await Promise.allSettled([
      ds.manager.transaction(async (em) => {
        await em.insert(NoteEntity, { text: 'in transaction' });
        await pause(10);
      }),
      (async () => {
        await pause(2);
        // A save of several rows is a transaction of its own.
        await repo.save([{ text: 'saved 1' }, { text: 'saved 2' }]);
      })(),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(await texts()).toEqual(['first', 'in transaction', 'saved 1', 'saved 2']);
  });

  it('makes transactions and writes outside them wait while the writer thread holds the write lock', async () => {
    ds = await open(true);
    const lock = sqliteWriteLock(ds);
    // Taken as the visit writer thread takes it (free, so it does not block here).
    lock.acquireBlocking();
    const done: string[] = [];
    const transaction = ds.manager
      .transaction((em) => em.insert(NoteEntity, { text: 'in transaction' }))
      .then(() => done.push('transaction'));
    const insert = ds
      .query(`INSERT INTO "notes" ("text") VALUES ('outside')`)
      .then(() => done.push('insert'));
    const read = ds.query(`SELECT COUNT(*) AS n FROM "notes"`).then(() => done.push('read'));
    await read;
    await pause(20);
    // Reads go on; both writes wait for the lock, without blocking the event loop meanwhile.
    expect(done).toEqual(['read']);
    lock.release();
    await Promise.all([transaction, insert]);
    expect(done.slice(1).sort()).toEqual(['insert', 'transaction']);
    expect(await texts()).toEqual(['in transaction', 'outside']);
  });
});
