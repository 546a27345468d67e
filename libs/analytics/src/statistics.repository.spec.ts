import { monthOfDay } from '@app/database';
import { splitByMonths } from './statistics.repository';

describe(splitByMonths.name, () => {
  const day = (ymd: string): number => Date.parse(`${ymd}T00:00:00Z`) / 86_400_000;

  it('splits a range into whole months and the days around them', () => {
    expect(splitByMonths(day('2026-03-10'), day('2026-10-25'), Infinity)).toEqual({
      days: [
        [day('2026-03-10'), day('2026-03-31')],
        [day('2026-10-01'), day('2026-10-25')],
      ],
      months: [monthOfDay(day('2026-04-01')), monthOfDay(day('2026-09-01'))],
    });
    expect(splitByMonths(day('2026-01-01'), day('2026-12-31'), Infinity)).toEqual({
      days: [],
      months: [672, 683],
    });
    expect(splitByMonths(day('2026-02-01'), day('2026-02-28'), Infinity)).toEqual({
      days: [],
      months: [673, 673],
    });
    expect(splitByMonths(day('2026-02-02'), day('2026-03-30'), Infinity)).toEqual({
      days: [[day('2026-02-02'), day('2026-03-30')]],
      months: null,
    });
  });

  it('takes whole months only up to the last closed month, and days after it', () => {
    const june = monthOfDay(day('2026-06-01'));
    expect(splitByMonths(day('2026-03-10'), day('2026-10-25'), june)).toEqual({
      days: [
        [day('2026-03-10'), day('2026-03-31')],
        [day('2026-07-01'), day('2026-10-25')],
      ],
      months: [monthOfDay(day('2026-04-01')), june],
    });
    expect(splitByMonths(day('2026-01-01'), day('2026-12-31'), june)).toEqual({
      days: [[day('2026-07-01'), day('2026-12-31')]],
      months: [672, june],
    });
    // Nothing closed within the range: days only.
    expect(
      splitByMonths(day('2026-03-10'), day('2026-10-25'), monthOfDay(day('2026-03-01'))),
    ).toEqual({
      days: [[day('2026-03-10'), day('2026-10-25')]],
      months: null,
    });
    expect(splitByMonths(day('2026-01-01'), day('2026-12-31'), -Infinity)).toEqual({
      days: [[day('2026-01-01'), day('2026-12-31')]],
      months: null,
    });
  });
});
