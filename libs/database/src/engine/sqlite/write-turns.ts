import type { SqliteWriteLock } from './sqlite-write-lock';

/**
 * Whose turn it is to write on a SQLite data source. TypeORM gives better-sqlite3 one connection
 * and one query runner for the whole process, so two transactions begun at once would both run on
 * it (the second BEGIN fails, the first commit finds no transaction). As Kysely's SqliteDriver
 * does with its connection mutex, writes take turns here, in the driver's place rather than by
 * patching the ORM: first among this process's writes (in the order they asked), then on the
 * SqliteWriteLock that this process shares with the visit writer and WAL checkpointer threads
 * (their own connections to the same file), so that nobody waits inside SQLite's busy handler,
 * which sleeps on the event loop.
 */
export class WriteTurns {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly lock: SqliteWriteLock) {}

  /** Resolves once this caller holds both turns. */
  async take(): Promise<void> {
    if (this.held) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.held = true;
    }
    try {
      await this.lock.acquire();
    } catch (error) {
      this.handOn();
      throw error;
    }
  }

  /** Takes both turns if they are free now, without waiting: false when another write has them. */
  tryTake(): boolean {
    if (this.held) return false;
    if (!this.lock.tryAcquire()) return false;
    this.held = true;
    return true;
  }

  /** Gives both back; the next waiting write (if any) goes on. */
  give(): void {
    this.lock.release();
    this.handOn();
  }

  /** Whether a write holds the turn or waits for it. */
  get busy(): boolean {
    return this.held;
  }

  private handOn(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}
