import {
  ALIAS_PATTERN,
  isReservedAlias,
  randomAlias,
  RANDOM_ALIAS_LENGTH,
  RESERVED_ALIASES,
} from './alias';

describe(isReservedAlias.name, () => {
  it('rejects reserved words in any case', () => {
    expect(['V1', 'Docs', 'HEALTH', 'uploads', 'api', 'aPi', 'Admin'].map(isReservedAlias)).toEqual(
      [true, true, true, true, true, true, true],
    );
  });

  it('accepts ordinary aliases, including ones that merely contain a reserved word', () => {
    expect(['promo', 'v3', 'apis', 'my-docs', 'health_check', 'v1x'].map(isReservedAlias)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('keeps every reserved word lower-case so the comparison can match', () => {
    expect([...RESERVED_ALIASES].filter((word) => word !== word.toLowerCase())).toEqual([]);
  });
});

describe(randomAlias.name, () => {
  it('builds 7 characters of a-z and 0-9 that pass ALIAS_PATTERN', () => {
    const alias = randomAlias();
    expect({
      length: alias.length,
      alphabet: /^[a-z0-9]+$/.test(alias),
      pattern: ALIAS_PATTERN.test(alias),
    }).toEqual({ length: RANDOM_ALIAS_LENGTH, alphabet: true, pattern: true });
    expect(RANDOM_ALIAS_LENGTH).toEqual(7);
  });

  it('keeps to the alphabet over many draws and does not repeat itself', () => {
    const aliases = Array.from({ length: 1000 }, () => randomAlias());
    expect(aliases.filter((alias) => !/^[a-z0-9]{7}$/.test(alias))).toEqual([]);
    expect(new Set(aliases).size).toBeGreaterThan(1);
  });
});
