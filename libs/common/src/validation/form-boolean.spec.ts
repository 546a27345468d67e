import { parseFormBoolean } from './form-boolean';

describe(parseFormBoolean.name, () => {
  it.each([
    ['1', true],
    ['true', true],
    [1, true],
    [true, true],
    ['0', false],
    ['false', false],
    [0, false],
    [false, false],
  ])('reads %j as %j', (value, expected) => {
    expect(parseFormBoolean(value)).toBe(expected);
  });

  it.each([['yes'], ['TRUE'], [' 1'], [''], [2], [-1], [null], [undefined], [['1']], [{}]])(
    'rejects %j',
    (value) => {
      expect(parseFormBoolean(value)).toBeUndefined();
    },
  );
});
