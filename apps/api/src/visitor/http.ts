import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import { asciiLocation } from '@app/common';
import type { VisitorDomain } from './cache/visitor-cache.service';
import { notFoundPage, PAGE_HEADERS } from './pages/visitor-pages';
import type { Visit } from './visit';

/*
 * The raw HTTP of the visitor side: answers, cookies, the form body, and the last resort when a
 * step fails. Plain functions on node:http objects.
 */

const FORM_BODY_LIMIT = 4096;
export const PERMANENT_CACHE = 'private, max-age=90';
export const TEMPORARY_CACHE = 'no-store';

const logger = new Logger('VisitorListener');

/** Answers the visit with a redirect, and counts it. */
export function redirect(visit: Visit, status: number, location: string, cache: string): void {
  const res = visit.res;
  res.writeHead(status, {
    Location: asciiLocation(location),
    'Cache-Control': cache,
    'Content-Length': '0',
  });
  res.end();
  visit.served.redirects += 1;
}

export function page(
  res: ServerResponse,
  status: number,
  html: string,
  head: boolean,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...PAGE_HEADERS,
    ...extra,
    'Content-Length': Buffer.byteLength(html),
    'X-Request-Id': randomUUID(),
  });
  res.end(head ? undefined : html);
}

/** The 404 of a link: a custom domain's own not-found URL when it has one. */
export function notFound(visit: Visit, domain: VisitorDomain | null, head: boolean): void {
  if (domain?.notFoundUrl) {
    redirect(visit, 302, domain.notFoundUrl, TEMPORARY_CACHE);
    return;
  }
  page(visit.res, 404, notFoundPage(), head);
}

export function readCookie(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) {
    return null;
  }
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) {
      return part.slice(eq + 1).trim();
    }
  }
  return null;
}

/** An HttpOnly cookie for the link's paths; `days` null = for the browser session. */
export function cookie(
  name: string,
  value: string,
  path: string,
  days: number | null,
  secure: boolean,
): string {
  const secureFlag = secure ? '; Secure' : '';
  const age = days === null ? '' : `; Max-Age=${days * 86400}`;
  return `${name}=${value}${age}; Path=${path}; HttpOnly; SameSite=Lax${secureFlag}`;
}

/** Whether cookies must be Secure: when the service is reached over HTTPS. */
export function secureCookies(appUrl: string): boolean {
  return new URL(appUrl).protocol === 'https:';
}

/** A small urlencoded form body, or null when it is larger than the limit. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_BODY_LIMIT) {
      return null;
    }
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * A page view is a document the browser navigates to (or frames), not a fetch of the page by a
 * script; clients that send no Sec-Fetch-Dest count too.
 */
export function isPageView(req: IncomingMessage): boolean {
  const dest = req.headers['sec-fetch-dest'];
  return dest === undefined || dest === 'document' || dest === 'iframe' || dest === 'frame';
}

/** Errors of a response whose client closed the connection before it was complete. */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

export function isClientGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLIENT_GONE.has(code);
}

/**
 * Ends the request with a 503 if `work` fails, whichever step of it throws: the continuation of
 * an asynchronous step runs inside `work`, so nothing it throws can become an unhandled
 * rejection (which would stop the process).
 */
export function settle(res: ServerResponse, work: Promise<unknown>): void {
  work.catch((error: unknown) => fail(res, error));
}

/**
 * Answers 503 (or drops the connection once headers are out) and logs the fault. A client that
 * went away in the middle of a download is no fault: the connection is dropped without a word.
 * Never throws: it is the last resort of every visitor request.
 */
export function fail(res: ServerResponse, error: unknown): void {
  try {
    if (isClientGone(error)) {
      res.destroy();
      return;
    }
    logger.error(`Visitor request failed: ${error instanceof Error ? error.stack : String(error)}`);
    if (!res.headersSent) {
      // A half-written head (a header that failed validation) is dropped first.
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '5' });
      res.end('Temporarily unavailable, try again in a moment.\n');
    } else {
      res.destroy();
    }
  } catch {
    res.destroy();
  }
}
