import type { Request, Response } from 'express';
import { AppError } from '../errors/app-error';
import { JSON_BODY_LIMITS, jsonBodyLimitsWith, normalizeJsonBody } from './json-body';

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

  it('names the fields of an array of objects [index].field, and deeper ones as forms do', () => {
    const fieldOf = (body: unknown) => {
      try {
        normalizeJsonBody(body);
      } catch (error) {
        return (error as AppError).problems[0].field;
      }
      return undefined;
    };
    expect(fieldOf([{ a: 'ok' }, { location_url: 'x\ud800' }])).toBe('[1].location_url');
    expect(fieldOf([{ list: ['ok', 'x\ud800'] }])).toBe('[0].list[1]');
    expect(fieldOf(['x\ud800'])).toBe('[0]');
    expect(fieldOf({ group: { name: 'x\ud800' } })).toBe('group[name]');
  });
});

describe(jsonBodyLimitsWith.name, () => {
  const request = (body: unknown) =>
    ({ body, is: (type: string) => type === 'json' }) as unknown as Request;

  it('checks a body with its own bounds once; a later check leaves it alone', () => {
    const large = jsonBodyLimitsWith({ maxDepth: 4, maxKeys: 10, maxValues: 100 });
    const small = jsonBodyLimitsWith({ maxDepth: 4, maxKeys: 10, maxValues: 5 });
    const req = request(new Array(50).fill(null));
    const next = jest.fn();
    large(req, {} as Response, next);
    small(req, {} as Response, next);
    expect(next.mock.calls).toEqual([[], []]);
    expect(req.body).toEqual(new Array(50).fill(''));
    const other = request(new Array(50).fill(0));
    small(other, {} as Response, next);
    expect(next.mock.calls[2][0]).toBeInstanceOf(AppError);
  });
});
