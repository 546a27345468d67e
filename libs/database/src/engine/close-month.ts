/*
 * A month's close (rollups/closed-months.ts), as the roll-up code describes it to the engine: the
 * statements are the roll-up code's, the way they run (locks, chunks, turns) the dialect's
 * (sqlite/close-month.ts, postgres/close-month.ts; chosen by for-dialect.ts).
 */

/** One month table of a close. */
export interface MonthCloseTable {
  /** The table its scope column refers to. */
  owners: 'links' | 'users';
  /** The FROM … WHERE of its owners' day rows of the month, `o` the owners; the days' placeholders. */
  monthDays(firstDay: string, lastDay: string): string;
  /**
   * The statement that sets the month's rows to the sums of its day rows; parameters: the month,
   * its first and last day (`params` their placeholders), then those of `owners`.
   */
  sumInto(params: [string, string, string], owners?: string): string;
}

/** Closing `month`, the month after the mark. */
export interface MonthClose {
  month: number;
  firstDay: number;
  lastDay: number;
  /** The one-row table of the mark (`months_closed_through`). */
  markTable: string;
  /** PostgreSQL: the advisory lock of the mark. */
  lock: number;
  /** The month tables, in the order their sums are written. */
  tables: readonly MonthCloseTable[];
}
