import fc from 'fast-check';
import { writeZip } from '../zip-writer';
import { FilePart, flatten, jsonText, multipart, ResolveRef, urlEncoded } from './encode';
import type { Operation, ParameterObject } from './openapi-model';
import { bodyArb, refArb, validFor } from './schema-arbitraries';
import {
  deepArray,
  hostileIdSegment,
  hostileValue,
  hugeString,
  nastyString,
  Raw,
  Ref,
  Value,
} from './values';

export type BodyInput =
  | { kind: 'json'; value: Value; contentType: string }
  | { kind: 'form'; value: Value }
  | { kind: 'multipart'; value: Value; files: FilePart[] }
  /** A whole body written by hand: hostile JSON, forms and multipart. */
  | { kind: 'raw'; contentType: string | null; data: string | Buffer };

/** What fast-check generates for one request; ids are resolved when it is sent. */
export interface FuzzInput {
  ids: (Ref | Raw)[];
  query: [string, Value][];
  /** Already-encoded query fragments appended as they are. */
  rawQuery: string[];
  team: Value | undefined;
  body: BodyInput | null;
}

/** A request ready for supertest. */
export interface HttpRequest {
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  body: string | Buffer | null;
}

/** The pool of stored ids a path's `{id}` names, from its first segment after /v1. */
export function poolOfPath(path: string): string {
  const segment = path.split('/')[2] ?? '';
  const pools: Record<string, string> = {
    statistics: 'links',
    'team-members': 'memberships',
    'teams-member': 'invitations',
  };
  return pools[segment] ?? segment;
}

const idArb = (pool: string): fc.Arbitrary<Ref | Raw> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.nat(50).map((i) => new Ref(pool, 'own', i)) },
    { weight: 2, arbitrary: fc.nat(50).map((i) => new Ref(pool, 'other', i)) },
    { weight: 2, arbitrary: hostileIdSegment.map((s) => new Raw(s)) },
  );

const RAW_QUERY = [
  'utm_source=%ED%A0%80',
  '%ED%A0%80=1',
  'a=%',
  'a=%ZZ',
  '%00=%0D%0A',
  '&&&=&',
  `search=${'%F0%9F%98%80'.repeat(500)}`,
  'page[]=1',
  'page=1&page=2',
  'results_per_page=10&results_per_page=1000',
  'order_by=__proto__',
  'search_by[]=name',
  'datetime_start=%EF%BC%92%EF%BC%90%EF%BC%92%EF%BC%96-01-01',
  'domain=example%E3%80%82com',
  'x=é',
];

/**
 * Query values stay under a few KB: Node answers a request line over 16 KB with a bare 431
 * before the application sees it.
 */
const shortHostile = hostileValue.filter((v) => (JSON.stringify(v) ?? '').length <= 2048);

function queryArb(params: ParameterObject[]): fc.Arbitrary<[string, Value][]> {
  if (params.length === 0) {
    return fc.constant([]);
  }
  const names = params.map((p) => p.name);
  const valueOf = (name: string): fc.Arbitrary<Value> => {
    const schema = params.find((p) => p.name === name)?.schema ?? {};
    return fc.oneof(
      { weight: 4, arbitrary: validFor(name, schema, 'query') },
      { weight: 1, arbitrary: shortHostile },
    );
  };
  const required = params.filter((p) => p.required).map((p) => p.name);
  return fc
    .uniqueArray(fc.constantFrom(...names), { maxLength: Math.min(4, names.length) })
    .chain((chosen) => {
      const all = [...new Set([...required, ...chosen])];
      return fc.tuple(...all.map((name) => valueOf(name).map((v): [string, Value] => [name, v])));
    });
}

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const fileData: fc.Arbitrary<{ data: Buffer; filename: string; contentType: string }> = fc.oneof(
  fc.constant({ data: PNG_1X1, filename: 'f.png', contentType: 'image/png' }),
  fc.constant({
    data: Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
    ),
    filename: 'f.svg',
    contentType: 'image/svg+xml',
  }),
  fc.constant({
    data: Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="20000"><rect width="10" height="10"/></svg>',
    ),
    filename: 'big.svg',
    contentType: 'image/svg+xml',
  }),
  fc.constant({
    data: Buffer.from('<!doctype html><title>Fuzz</title><p>fuzz 😀</p>'),
    filename: 'index.html',
    contentType: 'text/html',
  }),
  fc.constant({
    data: writeZip([
      { name: 'index.html', data: '<p>fuzz' },
      { name: 'a b/😀.css', data: 'p{}' },
    ]),
    filename: 'site.zip',
    contentType: 'application/zip',
  }),
  fc.constant({
    data: writeZip([
      { name: 'index.html', data: '<p>x' },
      { name: '../evil.html', data: '<p>evil' },
    ]),
    filename: 'evil.zip',
    contentType: 'application/zip',
  }),
  fc.constant({
    data: writeZip([{ name: 'index.html', data: 'x'.repeat(1000), declaredSize: 1 }]),
    filename: 'liar.zip',
    contentType: 'application/zip',
  }),
  fc.constant({ data: Buffer.from('GIF89a'), filename: 'cut.gif', contentType: 'image/gif' }),
  fc.constant({ data: Buffer.alloc(0), filename: 'empty.png', contentType: 'image/png' }),
  fc.uint8Array({ maxLength: 2000 }).map((bytes) => ({
    data: Buffer.from(bytes),
    filename: 'noise.bin',
    contentType: 'application/octet-stream',
  })),
);

const hostileFilename = fc.constantFrom(
  '😀.png',
  '../../x.html',
  'a\r\nb.zip',
  '\ud800.zip',
  `${'x'.repeat(300)}.html`,
  'noext',
  'index.html\u0000.png',
  '',
);

function filesArb(fields: string[]): fc.Arbitrary<FilePart[]> {
  if (fields.length === 0) {
    return fc.constant([]);
  }
  const one = fc
    .tuple(fc.constantFrom(...fields), fileData, fc.option(hostileFilename, { freq: 4 }))
    .map(([field, file, name]): FilePart => ({ field, ...file, filename: name ?? file.filename }));
  return fc.array(one, { maxLength: 2 });
}

const manyKeys = (n: number): string =>
  `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;

/** Whole bodies no schema describes. */
const rawBodies: fc.Arbitrary<BodyInput> = fc.oneof(
  fc.constantFrom<BodyInput>(
    { kind: 'raw', contentType: 'application/json', data: deepArray(5000).text },
    {
      kind: 'raw',
      contentType: 'application/json',
      data: `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
    },
    { kind: 'raw', contentType: 'application/json', data: '{"name":' },
    { kind: 'raw', contentType: 'application/json', data: '{name: 1}' },
    { kind: 'raw', contentType: 'application/json', data: '{"url":"a","url":null}' },
    {
      kind: 'raw',
      contentType: 'application/json',
      data: '{"__proto__":{"is_admin":true},"name":"p"}',
    },
    { kind: 'raw', contentType: 'application/json', data: '\ufeff{"name":"bom"}' },
    {
      kind: 'raw',
      contentType: 'application/json',
      data: Buffer.from([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d]),
    },
    { kind: 'raw', contentType: 'application/json', data: '' },
    { kind: 'raw', contentType: 'application/json; charset=utf-16', data: '{}' },
    { kind: 'raw', contentType: 'application/json; charset=latin1', data: '{"name":"\xe9"}' },
    { kind: 'raw', contentType: 'text/plain', data: 'name=x' },
    { kind: 'raw', contentType: 'application/xml', data: '<name>x</name>' },
    { kind: 'raw', contentType: null, data: 'name=x' },
    {
      kind: 'raw',
      contentType: 'application/x-www-form-urlencoded',
      data: 'a[b][c][d][e][f][g][h][i][j][k]=1',
    },
    { kind: 'raw', contentType: 'application/x-www-form-urlencoded', data: 'a[]=1&a[1000000]=2' },
    {
      kind: 'raw',
      contentType: 'application/x-www-form-urlencoded',
      data: 'name[__proto__][x]=1&name=x',
    },
    {
      kind: 'raw',
      contentType: 'application/x-www-form-urlencoded',
      data: 'name=%ED%A0%80&location_url=https%3A%2F%2Fexample.com%2F%ED%A0%80',
    },
    { kind: 'raw', contentType: 'application/x-www-form-urlencoded', data: 'name=%&url=%ZZ' },
    { kind: 'raw', contentType: 'application/x-www-form-urlencoded', data: '&'.repeat(5000) },
    {
      kind: 'raw',
      contentType: 'application/x-www-form-urlencoded',
      data: Array.from({ length: 2000 }, (_, i) => `k${i}=v`).join('&'),
    },
    { kind: 'raw', contentType: 'multipart/form-data', data: '--x\r\n' },
    {
      kind: 'raw',
      contentType: 'multipart/form-data; boundary=x',
      data: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nunterminated',
    },
    {
      kind: 'raw',
      contentType: 'multipart/form-data; boundary=x',
      data: '--x\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--x--\r\n',
    },
    {
      kind: 'raw',
      contentType: 'multipart/form-data; boundary=x',
      data: `${Array.from({ length: 1200 }, (_, i) => `--x\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join('')}--x--\r\n`,
    },
  ),
  fc
    .integer({ min: 1_000, max: 20_000 })
    .map((n): BodyInput => ({ kind: 'raw', contentType: 'application/json', data: manyKeys(n) })),
  hugeString.map((s): BodyInput => ({
    kind: 'raw',
    contentType: 'application/json',
    data: JSON.stringify({ name: s }),
  })),
  nastyString.map((s): BodyInput => ({ kind: 'raw', contentType: 'application/json', data: s })),
);

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
];

function bodyInputArb(op: Operation): fc.Arbitrary<BodyInput | null> {
  if (!op.body) {
    // Operations without a body still get one now and then.
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant(null) },
      {
        weight: 1,
        arbitrary: hostileValue.map((value): BodyInput => ({
          kind: 'json',
          value,
          contentType: 'application/json',
        })),
      },
      { weight: 1, arbitrary: rawBodies },
    );
  }
  const { schemaName, schema, contentTypes } = op.body;
  const value = fc.oneof(
    { weight: 8, arbitrary: bodyArb(schemaName, schema) },
    { weight: 1, arbitrary: hostileValue },
  );
  const fileFields = Object.entries(schema.properties ?? {})
    .filter(([, s]) => s.format === 'binary')
    .map(([name]) => name);
  const kinds: fc.Arbitrary<BodyInput>[] = [];
  if (contentTypes.includes('application/json')) {
    kinds.push(
      fc
        .tuple(value, fc.constantFrom(...JSON_TYPES))
        .map(([v, contentType]): BodyInput => ({ kind: 'json', value: v, contentType })),
    );
  }
  if (contentTypes.includes('application/x-www-form-urlencoded')) {
    kinds.push(value.map((v): BodyInput => ({ kind: 'form', value: v })));
  }
  if (contentTypes.includes('multipart/form-data')) {
    kinds.push(
      fc
        .tuple(value, filesArb(fileFields))
        .map(([v, files]): BodyInput => ({ kind: 'multipart', value: v, files })),
    );
  }
  return fc.oneof(
    { weight: 12, arbitrary: fc.oneof(...kinds) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: rawBodies },
  );
}

const teamArb = (op: Operation): fc.Arbitrary<Value | undefined> =>
  op.headerParams.some((p) => p.name === 'X-Team-Id')
    ? fc.oneof(
        { weight: 8, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: refArb('teams') },
        {
          weight: 1,
          arbitrary: fc.constantFrom<Value>(
            'abc',
            '-1',
            '1.5',
            '99999999999',
            '',
            ' 1',
            '0x1',
            '１',
          ),
        },
      )
    : fc.constant(undefined);

/** Requests for one operation of the document. */
export function requestArb(op: Operation): fc.Arbitrary<FuzzInput> {
  const pool = poolOfPath(op.path);
  return fc.record({
    ids: fc.tuple(...op.pathParams.map(() => idArb(pool))),
    query: fc.oneof(
      { weight: 4, arbitrary: queryArb(op.queryParams) },
      {
        weight: 1,
        arbitrary: fc.array(
          fc.tuple(fc.oneof(nastyString, fc.constantFrom('page', 'type', 'search')), shortHostile),
          { maxLength: 3 },
        ),
      },
    ),
    rawQuery: fc.oneof(
      { weight: 6, arbitrary: fc.constant<string[]>([]) },
      { weight: 1, arbitrary: fc.subarray(RAW_QUERY, { maxLength: 2 }) },
    ),
    team: teamArb(op),
    body: bodyInputArb(op),
  });
}

let boundaryCounter = 0;

/** Turns generated input into bytes on the wire. */
export function materialize(op: Operation, input: FuzzInput, resolve: ResolveRef): HttpRequest {
  let i = 0;
  const path = op.path.replace(/\{[^}]+\}/g, () => {
    const id = input.ids[i++];
    return id instanceof Ref ? String(resolve(id)) : (id?.text ?? '1');
  });
  const queryPairs = input.query.flatMap(([name, value]) => flatten({ [name]: value }, resolve));
  const query = [urlEncoded(queryPairs), ...input.rawQuery].filter((q) => q !== '').join('&');
  const headers: Record<string, string> = {};
  if (input.team !== undefined) {
    const team = flatten(input.team, resolve)[0]?.[1] ?? '';
    headers['X-Team-Id'] = team instanceof Raw ? team.text : team;
  }
  let body: string | Buffer | null = null;
  const b = input.body;
  if (b?.kind === 'json') {
    headers['Content-Type'] = b.contentType;
    body = jsonText(b.value, resolve);
  } else if (b?.kind === 'form') {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = urlEncoded(flatten(b.value, resolve));
  } else if (b?.kind === 'multipart') {
    boundaryCounter += 1;
    const boundary = `----fuzz${boundaryCounter}`;
    headers['Content-Type'] = `multipart/form-data; boundary=${boundary}`;
    body = multipart(boundary, flatten(b.value, resolve), b.files);
  } else if (b?.kind === 'raw') {
    if (b.contentType !== null) {
      headers['Content-Type'] = b.contentType;
    }
    body = b.data;
  }
  return { method: op.method, url: query ? `${path}?${query}` : path, headers, body };
}
