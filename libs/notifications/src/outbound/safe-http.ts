import { lookup } from 'node:dns/promises';
import http, { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress } from './address-policy';
import { OutboundError } from './outbound-error';

export interface OutboundRequest {
  method: 'GET' | 'HEAD' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** At most `maxBodyBytes` of the body, as text. */
  body: string;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface OutboundPolicy {
  allowPrivate: boolean;
  timeoutMs: number;
  maxRedirects?: number;
  maxBodyBytes?: number;
  /** How host names resolve. Defaults to the system resolver (tests inject answers). */
  resolve?: (host: string) => Promise<string[]>;
  /** Which addresses count as public. Defaults to isPublicAddress. */
  isAllowedAddress?: (ip: string) => boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function systemResolve(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

/**
 * One HTTP request to a user-supplied URL, guarded against SSRF: the host is resolved here, every
 * address must be public (unless allowed), and the connection goes to the address that was checked,
 * so a second DNS answer cannot swap it. Redirects are not followed blindly: each Location is a new
 * target, checked the same way, up to `maxRedirects` hops. One deadline covers the whole exchange
 * and the body read is capped.
 */
export async function safeRequest(
  request: OutboundRequest,
  policy: OutboundPolicy,
): Promise<OutboundResponse> {
  const maxRedirects = policy.maxRedirects ?? 3;
  const deadline = Date.now() + policy.timeoutMs;
  let current = request;
  for (let hop = 0; ; hop += 1) {
    const url = parseTarget(current.url);
    const address = await checkedAddress(url, policy);
    const response = await send(current, url, address, policy, deadline);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.status) || location === undefined) {
      return response;
    }
    if (hop >= maxRedirects) {
      throw new OutboundError(`Too many redirects (more than ${maxRedirects}).`);
    }
    const next = new URL(location, url).href;
    const keepMethod = response.status === 307 || response.status === 308;
    current = keepMethod
      ? { ...current, url: next }
      : { method: 'GET', url: next, headers: withoutBodyHeaders(current.headers) };
  }
}

function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('The target is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError(`The target must be an http(s) URL, not ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new OutboundError('The target URL must not carry credentials.');
  }
  return url;
}

async function checkedAddress(url: URL, policy: OutboundPolicy): Promise<string> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host);
    } catch {
      throw new OutboundError(`The host ${host} could not be resolved.`);
    }
  }
  if (addresses.length === 0) {
    throw new OutboundError(`The host ${host} could not be resolved.`);
  }
  // Every answer must pass: otherwise a name with one public and one private address would pass.
  const allowed = policy.isAllowedAddress ?? isPublicAddress;
  if (!policy.allowPrivate && !addresses.every((a) => allowed(a))) {
    throw new OutboundError(
      `The host ${host} resolves to a private, loopback or link-local address, which is not allowed.`,
    );
  }
  return addresses[0];
}

function withoutBodyHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (!/^content-(type|length)$/i.test(k)) {
      out[k] = v;
    }
  }
  return out;
}

function send(
  request: OutboundRequest,
  url: URL,
  address: string,
  policy: OutboundPolicy,
  deadline: number,
): Promise<OutboundResponse> {
  const maxBody = policy.maxBodyBytes ?? 64 * 1024;
  const client = url.protocol === 'https:' ? https : http;
  const body =
    request.body === undefined
      ? undefined
      : Buffer.isBuffer(request.body)
        ? request.body
        : Buffer.from(request.body, 'utf8');
  return new Promise<OutboundResponse>((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      reject(new OutboundError(`No answer within ${policy.timeoutMs} ms.`));
      return;
    }
    const req = client.request({
      method: request.method,
      host: address,
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      // TLS checks the certificate against the name, while the socket goes to the checked address.
      servername: isIP(url.hostname) ? undefined : url.hostname,
      headers: {
        'User-Agent': 'Linkdock-Notifier/1.0',
        ...request.headers,
        Host: url.host,
        ...(body ? { 'Content-Length': String(body.length) } : {}),
      },
      agent: false,
    });
    const timer = setTimeout(() => {
      req.destroy(new OutboundError(`No answer within ${policy.timeoutMs} ms.`));
    }, remaining);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error instanceof OutboundError ? error : new OutboundError(describe(error)));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (): void => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          url: url.href,
        });
      };
      res.on('data', (chunk: Buffer) => {
        if (size >= maxBody) {
          return;
        }
        chunks.push(chunk.subarray(0, maxBody - size));
        size += chunk.length;
        if (size >= maxBody) {
          // Enough read: stop the transfer instead of downloading an unbounded body.
          finish();
          res.destroy();
        }
      });
      res.on('end', finish);
      res.on('error', (error) => {
        clearTimeout(timer);
        reject(new OutboundError(describe(error)));
      });
    });
    req.end(body);
  });
}

function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `Connection failed (${code}).` : `Connection failed: ${error.message}`;
}
