import { DateTimeTexts, toDbDateTime } from './db-values';

describe(DateTimeTexts.name, () => {
  it('formats each datetime as toDbDateTime and toISOString do, in any order', () => {
    const texts = new DateTimeTexts();
    const base = Date.UTC(2026, 10, 26, 23, 59, 58, 990);
    const instants: number[] = [];
    // Runs within a second, across seconds, across midnight, then jumps back and far away.
    for (let i = 0; i < 3000; i += 7) instants.push(base + i);
    instants.push(base - 86_400_000 * 400, base, 0, 999, 1000, 86_399_999, 86_400_000);
    instants.push(Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), -1, -86_400_001);
    // Spread over 1938-2096 by a fixed sequence (the same on every run).
    let x = 12345;
    for (let i = 0; i < 2000; i += 1) {
      x = (x * 1103515245 + 12345) % 2147483648;
      instants.push(Math.floor((x / 2147483648) * 5e12) - 1e12);
    }
    for (const ms of instants) {
      const date = new Date(ms);
      expect([ms, texts.dbDateTime(date), texts.utcDay(ms)]).toEqual([
        ms,
        toDbDateTime(date),
        date.toISOString().slice(0, 10),
      ]);
    }
  });

  it('fails on an invalid date as toISOString does', () => {
    const texts = new DateTimeTexts();
    texts.dbDateTime(new Date(0));
    expect(() => texts.dbDateTime(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => texts.utcDay(Number.NaN)).toThrow(RangeError);
  });
});
