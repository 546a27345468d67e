import { AppError } from '@app/common';
import { MAX_MINOR_UNITS, minorOf } from './webhook-outcome';

describe(minorOf.name, () => {
  it.each([
    [0, 0],
    [1999, 1999],
    ['13500', 13500],
    [MAX_MINOR_UNITS, MAX_MINOR_UNITS],
    [String(MAX_MINOR_UNITS), MAX_MINOR_UNITS],
    [undefined, 0],
    [null, 0],
  ])('reads %j as %j minor units', (value, minor) => {
    expect(minorOf(value, 'amount')).toBe(minor);
  });

  it.each([
    -5,
    1.5,
    1e300,
    2 ** 62,
    MAX_MINOR_UNITS + 1,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '-5',
    '1.5',
    '1e3',
    ' 5',
    '',
    '99999999999999999999',
    true,
    {},
    [],
  ])('refuses %j with invalid_event naming the field', (value) => {
    let thrown: unknown;
    try {
      minorOf(value, 'data.object.amount_total');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).toEntries()).toEqual([
      {
        status: 400,
        title: `data.object.amount_total must be a whole number of minor units from 0 to 999999999999; the event has ${JSON.stringify(value)}.`,
        field: 'data.object.amount_total',
        code: 'invalid_event',
      },
    ]);
  });
});
