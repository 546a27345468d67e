import { isRecord, Raw, Ref, Value } from './values';

export type ResolveRef = (ref: Ref) => number;

/**
 * UTF-8, except that a lone surrogate is written as its own three bytes (WTF-8), as a sloppy
 * client would: the server then sees bytes that are no UTF-8 at all.
 */
export function wtf8(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    let c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
      i += 1;
    }
    if (c < 0x80) {
      bytes.push(c);
    } else if (c < 0x800) {
      bytes.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
      bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    } else {
      bytes.push(
        0xf0 | (c >> 18),
        0x80 | ((c >> 12) & 0x3f),
        0x80 | ((c >> 6) & 0x3f),
        0x80 | (c & 0x3f),
      );
    }
  }
  return Buffer.from(bytes);
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes every byte but the unreserved ones (lone surrogates as WTF-8). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of wtf8(text)) {
    const ch = String.fromCharCode(byte);
    out += UNRESERVED.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** JSON text; strings with lone surrogates come out as `\ud800` escapes, Raw as written. */
export function jsonText(value: Value, resolve: ResolveRef): string {
  if (value instanceof Raw) {
    return value.text;
  }
  if (value instanceof Ref) {
    return String(resolve(value));
  }
  if (Array.isArray(value)) {
    return `[${value.map((v) => jsonText(v, resolve)).join(',')}]`;
  }
  if (isRecord(value)) {
    const entries = Object.entries(value).map(
      ([k, v]) => `${JSON.stringify(k)}:${jsonText(v, resolve)}`,
    );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A form value: text, or already-encoded text (Raw). */
export type FormValue = string | Raw;

function scalarText(value: Value, resolve: ResolveRef): FormValue {
  if (value instanceof Raw) {
    return value;
  }
  if (value instanceof Ref) {
    return String(resolve(value));
  }
  if (value === null) {
    return '';
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** `name[]=v`, `name[key]=v` pairs, the way the contract reads forms. */
export function flatten(value: Value, resolve: ResolveRef, prefix = ''): [string, FormValue][] {
  if (Array.isArray(value)) {
    if (prefix === '') {
      return value.flatMap((v, i) => flatten(v, resolve, String(i)));
    }
    const scalars = value.every((v) => !Array.isArray(v) && !isRecord(v));
    return value.flatMap((v, i) =>
      flatten(v, resolve, scalars ? `${prefix}[]` : `${prefix}[${i}]`),
    );
  }
  if (isRecord(value)) {
    return Object.entries(value).flatMap(([k, v]) =>
      flatten(v, resolve, prefix === '' ? k : `${prefix}[${k}]`),
    );
  }
  return [[prefix, scalarText(value, resolve)]];
}

const encodeFormValue = (v: FormValue): string => (v instanceof Raw ? v.text : percentEncode(v));

export function urlEncoded(pairs: [string, FormValue][]): string {
  return pairs.map(([k, v]) => `${percentEncode(k)}=${encodeFormValue(v)}`).join('&');
}

export interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body written by hand, so that names and filenames can be hostile. */
export function multipart(
  boundary: string,
  pairs: [string, FormValue][],
  files: FilePart[],
): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value] of pairs) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="`),
      wtf8(name),
      Buffer.from('"\r\n\r\n'),
      value instanceof Raw ? Buffer.from(value.text, 'latin1') : wtf8(value),
      Buffer.from('\r\n'),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="`),
      wtf8(file.field),
      Buffer.from('"; filename="'),
      wtf8(file.filename),
      Buffer.from(`"\r\nContent-Type: ${file.contentType}\r\n\r\n`),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
