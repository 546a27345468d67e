import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Injectable } from '@nestjs/common';
import { contentType } from 'mime-types';
import { SiteFile, sitePathSegments, SiteRef, SiteStorage } from '@app/storage';

/**
 * Headers of every file of a static site. The site is user content served from the service's own
 * origin, so its pages run sandboxed: scripts, forms and popups work, but without
 * `allow-same-origin` the page gets an opaque origin and can read no cookie or storage of the
 * service and make no credentialed same-origin request to the API. nosniff keeps a file from being
 * read as another type than the one its name gives.
 */
export const SITE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // The sandboxed page's origin is opaque, so its fonts and module scripts are cross-origin
  // requests; the files are public anyway (a password gate still applies, cookies are not sent).
  'Access-Control-Allow-Origin': '*',
};

/** What a request for a path of a site resolves to. */
export type SiteAnswer =
  | { kind: 'file'; file: SiteFile; path: string; html: boolean }
  | { kind: 'redirect'; location: string }
  | { kind: 'bad-request' }
  | { kind: 'not-found' };

/**
 * `rest` is the raw request path after `/{alias}`, starting with `/`. Percent-decoding happens
 * once, per segment; encoded slashes and backslashes, `.`/`..` segments, NUL and malformed
 * escapes are refused before any file system call. Segments are normalised to NFC, as the names
 * of the files are when an archive is unpacked (macOS writes NFD names into zip files).
 */
export function sitePath(rest: string): string[] | null {
  const raw = rest.slice(1).split('/');
  const segments: string[] = [];
  for (let i = 0; i < raw.length; i += 1) {
    const segment = raw[i];
    if (/%(2f|5c|00)/i.test(segment)) {
      return null;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment).normalize('NFC');
    } catch {
      return null;
    }
    if (decoded === '.' || decoded === '..' || decoded.includes('\\') || decoded.includes('\0')) {
      return null;
    }
    if (decoded === '' && i !== raw.length - 1) {
      return null;
    }
    segments.push(decoded);
  }
  return segments;
}

/** The version is in it: a replace within the same millisecond and size is still a change. */
function etagOf(site: SiteRef, file: SiteFile): string {
  return `"${site.version}-${file.size.toString(16)}-${file.mtime.getTime().toString(16)}"`;
}

/** RFC 9110 §13.1: If-None-Match wins over If-Modified-Since. */
export function isNotModified(req: IncomingMessage, etag: string, mtime: Date): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) {
    return inm
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === etag);
  }
  const ims = req.headers['if-modified-since'];
  if (ims !== undefined) {
    const since = Date.parse(ims);
    return !Number.isNaN(since) && Math.floor(mtime.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

/**
 * One byte range of a GET (media players seek with these), null to send the whole file: no
 * Range, several ranges, or an If-Range that no longer matches.
 */
export function requestedRange(
  req: IncomingMessage,
  etag: string,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const header = req.headers.range;
  const ifRange = req.headers['if-range'];
  if (req.method !== 'GET' || header === undefined || (ifRange !== undefined && ifRange !== etag)) {
    return null;
  }
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) {
    return null;
  }
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(size - suffix, 0);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) {
    return 'unsatisfiable';
  }
  return { start, end };
}

/** Reads the files of static sites for the visitor side, through SiteStorage only. */
@Injectable()
export class StaticFiles {
  constructor(private readonly storage: SiteStorage) {}

  /**
   * Finds what `{prefix}{rest}` names, `prefix` being `/{alias}` (and the access token of a
   * protected site): a file, a folder's index.html (a folder without a trailing slash is
   * redirected to one under the same prefix, so relative URLs resolve), or nothing.
   */
  async resolve(
    site: SiteRef,
    prefix: string,
    rest: string,
    query: string | null,
  ): Promise<SiteAnswer> {
    const segments = sitePath(rest);
    if (segments === null) {
      return { kind: 'bad-request' };
    }
    const isFolder = segments[segments.length - 1] === '';
    const path = [
      ...segments.slice(0, -1),
      isFolder ? 'index.html' : segments[segments.length - 1],
    ];
    const relative = path.join('/');
    if (sitePathSegments(relative) === null) {
      return { kind: 'not-found' };
    }
    const file = await this.storage.open(site, relative);
    if (file !== null) {
      return { kind: 'file', file, path: relative, html: /\.html?$/i.test(relative) };
    }
    if (!isFolder && (await this.storage.stat(site, `${relative}/index.html`))?.kind === 'file') {
      const suffix = query === null ? '' : `?${query}`;
      return { kind: 'redirect', location: `${prefix}${rest}/${suffix}` };
    }
    return { kind: 'not-found' };
  }

  /** Whether the version is still stored (every version has index.html at its root). */
  async exists(site: SiteRef): Promise<boolean> {
    return (await this.storage.stat(site, 'index.html'))?.kind === 'file';
  }

  /** Sends a resolved file: 304 when the client's copy is current, the bytes otherwise. */
  async send(
    req: IncomingMessage,
    res: ServerResponse,
    file: SiteFile,
    path: string,
    site: SiteRef,
    cacheControl: string,
  ): Promise<number> {
    const etag = etagOf(site, file);
    const headers: Record<string, string | number> = {
      ...SITE_HEADERS,
      ETag: etag,
      'Last-Modified': file.mtime.toUTCString(),
      'Cache-Control': cacheControl,
    };
    if (isNotModified(req, etag, file.mtime)) {
      await file.close();
      res.writeHead(304, headers);
      res.end();
      return 304;
    }
    headers['Content-Type'] =
      contentType(path.slice(path.lastIndexOf('/') + 1)) || 'application/octet-stream';
    headers['Accept-Ranges'] = 'bytes';
    const range = requestedRange(req, etag, file.size);
    if (range === 'unsatisfiable') {
      await file.close();
      res.writeHead(416, { ...headers, 'Content-Range': `bytes */${file.size}` });
      res.end();
      return 416;
    }
    const status = range === null ? 200 : 206;
    if (range !== null) {
      headers['Content-Range'] = `bytes ${range.start}-${range.end}/${file.size}`;
    }
    headers['Content-Length'] = range === null ? file.size : range.end - range.start + 1;
    res.writeHead(status, headers);
    if (req.method === 'HEAD') {
      await file.close();
      res.end();
      return status;
    }
    await pipeline(file.stream(range ?? undefined), res);
    return status;
  }
}
