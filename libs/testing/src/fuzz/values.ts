import fc from 'fast-check';

/**
 * Text sent exactly as written: a JSON fragment (`1e999`, a 5,000-deep array), or an already
 * percent-encoded form or query value (`%ED%A0%80`, which is no UTF-8 at all).
 */
export class Raw {
  constructor(readonly text: string) {}
}

/**
 * The id of a stored resource, chosen when the request is built: the pools grow as the fuzz
 * creates rows, so later operations hit what earlier ones stored.
 */
export class Ref {
  constructor(
    readonly pool: string,
    readonly owner: 'own' | 'other',
    readonly index: number,
  ) {}
}

export type Value =
  null | boolean | number | string | Raw | Ref | Value[] | { [key: string]: Value };

export function isRecord(value: Value): value is { [key: string]: Value } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Raw) &&
    !(value instanceof Ref)
  );
}

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/** Characters that break parsers, headers, URLs, HTML and databases. */
const NASTY_CHARS = [
  '\u0000',
  '\r',
  '\n',
  '\t',
  '\b',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u200b',
  '\u202e',
  '\ufeff',
  '\uffff',
  '\ufffd',
  '😀',
  '👨‍👩‍👧',
  '。',
  '．',
  '｡',
  'ｅ',
  '１',
  '％',
  '／',
  'İ',
  'ß',
  'é',
  '\u0301',
  '"',
  "'",
  '\\',
  '<',
  '>',
  '&',
  '%',
  '?',
  '#',
  '/',
  ':',
  ';',
  ' ',
  '[',
  ']',
  '{',
  '$',
  '`',
] as const;

const nastyUnit = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.constantFrom(...NASTY_CHARS),
  loneSurrogate,
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
);

/** Short strings of troublesome characters, lone surrogates included. */
export const nastyString = fc.string({ unit: nastyUnit, maxLength: 24 });

/** Strings from 1 KB to about 100 KB, of one troublesome unit repeated. */
export const hugeString = fc
  .tuple(
    fc.constantFrom('a', '😀', '\ud800', '%', '\u0000', 'é', '<b>', '\r\n', '１', ' '),
    fc.integer({ min: 1_000, max: 100_000 }),
  )
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)));

const SPECIAL_STRINGS = [
  '',
  ' ',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '0x1f',
  ' 1',
  '١٢٣',
  '１２３',
  '__proto__',
  'constructor',
  "' OR '1'='1",
  '"; DROP TABLE links; --',
  '${7*7}{{7*7}}',
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  '%00',
  '%ZZ',
  '\ud800x',
  'x\udfff',
  '\udc00\ud800',
  'a\u0000b',
  'line\r\nX-Injected: 1',
  '😀',
  'https://example。com/',
] as const;

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 3, arbitrary: nastyString },
  { weight: 1, arbitrary: hugeString },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1.5,
    -1.5,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 32,
    2 ** 53 + 2,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    1e21,
    1e308,
    -1e308,
    Number.MIN_VALUE,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Number literals JSON.stringify cannot write: they parse to Infinity, -0 or lose precision. */
const rawNumber = fc
  .constantFrom('1e999', '-1e999', '123456789012345678901234567890', '-0', '1E+2', '1e-400')
  .map((text) => new Raw(text));

/** `[[[…]]]`, `depth` deep. */
export function deepArray(depth: number): Raw {
  return new Raw(`${'['.repeat(depth)}${']'.repeat(depth)}`);
}

/** A value of the wrong kind for any field. */
export const hostileValue: fc.Arbitrary<Value> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: rawNumber },
  { weight: 4, arbitrary: hostileString },
  {
    weight: 2,
    arbitrary: fc.array(fc.oneof(hostileString, hostileNumber, fc.constant(null)), {
      maxLength: 3,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.dictionary(
      fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('0', 'length', 'toString')),
      fc.oneof(hostileString, hostileNumber, fc.constant(null)),
      { maxKeys: 3 },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom<Value>([], {}, [[['x']]], { a: { b: { c: 1 } } }) },
  { weight: 1, arbitrary: fc.constant(deepArray(500)) },
);

/** Path segments for `{id}`, already percent-encoded. */
export const hostileIdSegment = fc.constantFrom(
  '0',
  '-1',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999',
  '1.5',
  '1e3',
  '0x10',
  'abc',
  '%20%201',
  '1%00',
  '%F0%9F%98%80',
  '%EF%BC%91',
  '%ED%A0%80',
  '1%2F2',
  '%2e%2e',
  '%0D%0A',
  'null',
  '00001',
  '+1',
  '1;1',
  '%',
  '%E3%80%82',
);

const ALIAS_RE = /^[A-Za-z0-9_-]{3,16}$/;

export const aliasArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(ALIAS_RE) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'v1',
      'api',
      'health',
      'uploads',
      'docs',
      'assets',
      'signatures',
      'ab',
      'a'.repeat(65),
      '😀😀😀',
      'a/b',
      'a b c',
      'ｆｕｌｌ',
      '\ud800ab',
    ),
  },
);

/** Destinations: mostly valid, with the forms that broke `Location` headers before. */
export const urlArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'https://example.com/',
      'https://example.com/😀',
      'https://example。com/',
      'https://example．com/',
      'https://example.com/\r\nSet-Cookie: x=1',
      'https://example.com/a\tb',
      'https://exa mple.com/',
      'https://example.com/\u0000',
      'https://example.com/\ud800',
      'https://bücher.example/',
      'https://例え.テスト/パス',
      'https://[::1]/',
      'http://127.0.0.1:9/',
      'https://user:pass@example.com/',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '//evil.example/',
      'https://example.com:99999/',
      'https://example.com/%ZZ',
      `https://example.com/${'a'.repeat(3000)}`,
      'HTTPS://EXAMPLE.COM',
      'https://example.com/?q=😀#frag',
      'https://example.com\\@evil.example/',
      'ftp://example.com/',
      'https://example.com/\u2028',
      'https://example.com/<>"',
      'mailto:a@example.com',
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('https://example.com/', 'http://example.org/p?q='), nastyString)
      .map(([base, tail]) => base + tail),
  },
);

export const emailArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.emailAddress() },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'a@example.com',
      'a\ud800@example.com',
      '😀@example.com',
      'a@example。com',
      'a@b',
      '"a b"@example.com',
      'a@[127.0.0.1]',
      'A@EXAMPLE.COM',
      'a@example.com\r\nBcc: b@example.com',
    ),
  },
);

export const hostArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.nat(1_000_000))
      .map(([label, n]) => `${label}${n}.fuzz.example.com`),
  },
  { weight: 1, arbitrary: fc.domain() },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'bücher.example',
      'EXAMPLE.ORG.',
      'a．example．com',
      'a。example。com',
      'xn--.example',
      `${'a'.repeat(64)}.example`,
      `${'a.'.repeat(130)}example`,
      'localhost',
      '127.0.0.1',
      '[::1]',
      'links.test',
      'example.com:8080',
      'https://x.example/path?q=1',
      '_dmarc.example.com',
      '-a.example.com',
      'a..example.com',
      '😀.example.com',
      '\ud800.example.com',
      'exa mple.com',
    ),
  },
);

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export const dateArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map(
        (d) =>
          `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
          `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
      ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '2026-02-30 00:00:00',
      '0000-00-00 00:00:00',
      '9999-12-31 23:59:59',
      '2026-12-01',
      '2026-12-01T00:00:00Z',
      '2026-12-01 25:61:61',
      '１９７０-01-01 00:00:00',
      '-271821-04-20 00:00:00',
      '275760-09-13 00:00:01',
      '1970-01-01 00:00:00',
      '2026-12-01 00:00:00\u0000',
    ),
  },
);
