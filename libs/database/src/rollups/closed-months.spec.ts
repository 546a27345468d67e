import { endedMonth, latestMonth } from './closed-months';
import { monthOfDay } from './rollups';

const at = (iso: string): number => Date.parse(iso);
const OCTOBER_2026 = monthOfDay(Date.parse('2026-10-15T00:00:00Z') / 86_400_000);

describe('closed months', () => {
  it('knows the latest month a visit can be counted in: the one of the zone furthest ahead (UTC+14)', () => {
    expect(OCTOBER_2026).toBe(681);
    expect(latestMonth(at('2026-10-31T09:59:59.999Z'))).toBe(681);
    // 1 November has begun in Kiribati (UTC+14).
    expect(latestMonth(at('2026-10-31T10:00:00Z'))).toBe(682);
  });

  it('closes a month once it has ended in the zone furthest behind (UTC−12), plus the margin', () => {
    expect(endedMonth(at('2026-11-01T11:59:59.999Z'), 0)).toBe(680);
    expect(endedMonth(at('2026-11-01T12:00:00Z'), 0)).toBe(681);
    const hour = 3_600_000;
    expect(endedMonth(at('2026-11-01T12:59:59.999Z'), hour)).toBe(680);
    expect(endedMonth(at('2026-11-01T13:00:00Z'), hour)).toBe(681);
    // Never a month a visit can still fall in.
    for (const iso of ['2026-11-01T12:00:00Z', '2026-12-31T23:59:59Z', '2027-01-01T00:00:00Z']) {
      expect(endedMonth(at(iso), 0)).toBeLessThan(latestMonth(at(iso)));
    }
  });
});
