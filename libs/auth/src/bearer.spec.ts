import { bearerToken } from './bearer';

describe(bearerToken.name, () => {
  it.each([
    ['Bearer ld_abc', 'ld_abc'],
    ['bearer ld_abc', 'ld_abc'],
    ['BEARER ld_abc', 'ld_abc'],
  ])('reads the token of %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each([
    ['Basic dXNlcjpwYXNz'],
    ['Bearer'],
    ['Bearer '],
    ['Bearer a b'],
    ['Bearer    ld_abc'],
    ['Bearer ld_abc   '],
    ['Bearer\tld_abc'],
    ['Bearerld_abc'],
    [' Bearer ld_abc'],
    ['Token ld_abc'],
    [''],
  ])('rejects %j', (header) => {
    expect(bearerToken(header)).toBeNull();
  });

  it.each([[undefined], [null], [42], [['Bearer ld_abc']], [{ token: 'ld_abc' }]])(
    'rejects the non-string %j',
    (header) => {
      expect(bearerToken(header)).toBeNull();
    },
  );
});
