import { belowClicksLimit, crossedClicksLimit } from './clicks-limit-events';

describe('crossedClicksLimit', () => {
  const settings = (limit: number | null) =>
    JSON.stringify({ http_status_code: 302, clicks_limit: limit, schedule: false });

  it('is true only for the flush that reaches the limit', () => {
    expect(crossedClicksLimit(settings(3), 2, 1)).toBe(false);
    expect(crossedClicksLimit(settings(3), 3, 1)).toBe(true);
    expect(crossedClicksLimit(settings(3), 4, 2)).toBe(true);
    expect(crossedClicksLimit(settings(3), 5, 1)).toBe(false);
  });

  it('is false without a limit', () => {
    expect(crossedClicksLimit(settings(null), 10, 10)).toBe(false);
    expect(crossedClicksLimit(settings(0), 10, 10)).toBe(false);
    expect(crossedClicksLimit('{}', 1, 1)).toBe(false);
  });
});

describe('belowClicksLimit', () => {
  const settings = (limit: number | null) =>
    JSON.stringify({ http_status_code: 302, clicks_limit: limit, schedule: false });

  it('is true while the clicks are under a limit', () => {
    expect(belowClicksLimit(settings(3), 0)).toBe(true);
    expect(belowClicksLimit(settings(3), 2)).toBe(true);
    expect(belowClicksLimit(settings(3), 3)).toBe(false);
    expect(belowClicksLimit(settings(3), 7)).toBe(false);
  });

  it('is false without a limit', () => {
    expect(belowClicksLimit(settings(null), 0)).toBe(false);
    expect(belowClicksLimit(settings(0), 0)).toBe(false);
    expect(belowClicksLimit('{}', 0)).toBe(false);
  });
});
