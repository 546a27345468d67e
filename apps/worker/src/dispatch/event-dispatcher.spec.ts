import { nextAttemptAt, RETRY_DELAYS_MS } from './event-dispatcher';

describe('nextAttemptAt', () => {
  const now = new Date('2026-11-24T10:00:00Z');

  it('waits about 1 min, 5 min, 30 min, 2 h, 6 h, 12 h and 24 h, then gives up', () => {
    const middle = () => 0.5;
    const waits = [1, 2, 3, 4, 5, 6, 7].map(
      (attempt) => nextAttemptAt(attempt, now, middle)!.getTime() - now.getTime(),
    );
    expect(waits).toEqual([
      60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000,
    ]);
    expect(nextAttemptAt(8, now, middle)).toBeNull();
  });

  it('spreads retries by ±10 %', () => {
    const low = nextAttemptAt(1, now, () => 0)!.getTime() - now.getTime();
    const high = nextAttemptAt(1, now, () => 0.999999)!.getTime() - now.getTime();
    expect(low).toBe(RETRY_DELAYS_MS[0] * 0.9);
    expect(high).toBe(Math.round(RETRY_DELAYS_MS[0] * (0.9 + 0.2 * 0.999999)));
  });
});
