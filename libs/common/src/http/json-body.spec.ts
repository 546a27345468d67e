import { AppError } from '../errors/app-error';
import { JSON_BODY_LIMITS, normalizeJsonBody } from './json-body';

function problemOf(body: unknown): { code: string; title: string; field?: string } {
  try {
    normalizeJsonBody(body);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const e = error as AppError;
    return { code: e.code, ...e.problems[0] };
  }
  throw new Error('expected the body to be refused');
}

function nested(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe(normalizeJsonBody.name, () => {
  it('turns null into the empty value at every level, like an empty form field', () => {
    expect(
      normalizeJsonBody({ a: null, b: [null, 'x', { c: null }], d: { e: null, f: 0, g: false } }),
    ).toEqual({ a: '', b: ['', 'x', { c: '' }], d: { e: '', f: 0, g: false } });
    expect(normalizeJsonBody(null)).toBe('');
  });

  it('keeps well-formed text, emoji included, and scalars as they are', () => {
    const body = { name: 'Müller 😀', n: 12, ok: true, list: ['a', 'b'] };
    expect(normalizeJsonBody(structuredClone(body))).toEqual(body);
    expect(normalizeJsonBody(5)).toBe(5);
  });

  it('refuses a lone surrogate in a value, naming the field', () => {
    expect(problemOf({ email: '\ud800x@example.com' })).toEqual({
      code: 'validation_failed',
      title: 'email is not well-formed Unicode text (it has a lone surrogate).',
      field: 'email',
    });
    expect(problemOf({ utm: { source: ['ok', 'x\udc00'] } })).toMatchObject({
      field: 'utm[source][1]',
    });
    expect(problemOf('\udfff')).toMatchObject({ code: 'validation_failed' });
  });

  it('refuses a lone surrogate in a key without echoing it', () => {
    expect(problemOf({ ['a\ud800']: 1 })).toEqual({
      code: 'malformed_body',
      title: 'A field name in the request body is not well-formed Unicode text.',
    });
  });

  it('accepts nesting up to the limit and refuses one level more', () => {
    expect(() => normalizeJsonBody(nested(JSON_BODY_LIMITS.maxDepth))).not.toThrow();
    expect(problemOf(nested(JSON_BODY_LIMITS.maxDepth + 1))).toEqual({
      code: 'payload_too_large',
      title: `The request body nests deeper than ${JSON_BODY_LIMITS.maxDepth} levels.`,
    });
    // 5,000 levels: refused, not a RangeError from a recursive walk.
    expect(problemOf(nested(5000)).code).toBe('payload_too_large');
  });

  it('refuses an object with too many keys, naming where it is', () => {
    const keys = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(() => normalizeJsonBody(keys(JSON_BODY_LIMITS.maxKeys))).not.toThrow();
    expect(problemOf(keys(JSON_BODY_LIMITS.maxKeys + 1))).toEqual({
      code: 'payload_too_large',
      title: `The request body has more than ${JSON_BODY_LIMITS.maxKeys} fields.`,
    });
    expect(problemOf({ group: keys(80_000) }).title).toBe(
      `group has more than ${JSON_BODY_LIMITS.maxKeys} fields.`,
    );
  });

  it('refuses more values in all than the limit, however they are spread', () => {
    const limits = { maxDepth: 4, maxKeys: 10, maxValues: 25 };
    const rows = (n: number) => Array.from({ length: n }, () => ({ a: 1, b: 2, c: 3, d: 4 }));
    // 5 rows: 5 array entries + 20 fields = 25 values.
    expect(() => normalizeJsonBody(rows(5), limits)).not.toThrow();
    expect(() => normalizeJsonBody(rows(6), limits)).toThrow(
      'The request body has more than 25 values.',
    );
    expect(() => normalizeJsonBody(new Array(26).fill(0), limits)).toThrow(AppError);
  });
});
