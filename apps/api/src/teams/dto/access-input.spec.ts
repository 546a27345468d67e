import { parseAccess } from './access-input';

const NONE = { read: true, create: false, update: false, delete: false };

describe(parseAccess.name, () => {
  it.each([
    ['a list of flags', ['create', 'delete'], { ...NONE, create: true, delete: true }],
    ['one flag as text', 'update', { ...NONE, update: true }],
    ['flags with spaces', [' create '], { ...NONE, create: true }],
    ['an empty value', '', NONE],
    ['an empty list', [], NONE],
    ['null', null, NONE],
    [
      'an object of 0/1',
      { create: '1', update: '0', delete: 'true' },
      { ...NONE, create: true, delete: true },
    ],
    ['an object of booleans', { update: true }, { ...NONE, update: true }],
    ['read turned off, which stays on', { read: '0' }, NONE],
    ['read listed alone', ['read'], NONE],
  ])('reads %s', (_case, input, expected) => {
    expect(parseAccess(input)).toEqual(expected);
  });

  it.each([
    [
      'an unknown flag',
      ['create', 'admin'],
      'access may only list read, create, update, delete; got "admin".',
    ],
    ['a list of numbers', [1], 'access may only list read, create, update, delete; got 1.'],
    [
      'an unknown key',
      { owner: '1' },
      'access may only have the keys read, create, update, delete; got "owner".',
    ],
    ['a flag that is not 0 or 1', { create: 'yes' }, 'access[create] must be 0 or 1.'],
    [
      'a number',
      5,
      'access must be a list of read, create, update, delete, or an object of them set to 0 or 1.',
    ],
  ])('refuses %s', (_case, input, reason) => {
    expect(parseAccess(input)).toEqual({ reason });
  });
});
