import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BlockList } from 'node:net';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { SiteRef } from '@app/storage';
import { isReservedAlias } from '../alias';
import { verifyLinkPassword } from '../link-password';
import { buildTrustedProxies, clientIp } from '@app/common';
import { EdgeCache, EdgeDomain } from './edge-cache.service';
import { EdgeLink } from './edge-link';
import {
  methodNotAllowedPage,
  notFoundPage,
  PAGE_HEADERS,
  passwordPage,
  sensitiveContentPage,
  tooManyAttemptsPage,
} from './edge-pages';
import { EDGE_SECRET } from './edge-secret';
import {
  isSignedFor,
  SITE_ACCESS_RENEW_SECONDS,
  SITE_ACCESS_SECONDS,
  signSiteAccess,
  splitSiteAccess,
} from './site-access';
import { splashPage } from './splash-page';
import { StaticFiles } from './edge-static';
import { VisitorInfo, VisitRecorder } from '@app/analytics';

/** `/{alias}` and, for static sites, `/{alias}/any/path`. */
const LINK_PATH = /^\/([A-Za-z0-9_-]{3,64})(\/.*)?$/;
const FORM_BODY_LIMIT = 4096;
const PASSWORD_COOKIE_DAYS = 30;
const PASSWORD_ATTEMPTS_PER_MINUTE = 10;
const PERMANENT_CACHE = 'private, max-age=90';
const TEMPORARY_CACHE = 'no-store';
/** Files of static sites are revalidated on every use (ETag / Last-Modified make that cheap). */
const SITE_CACHE = 'no-cache';
const PROTECTED_SITE_CACHE = 'private, no-cache';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Where a request lands: the main domain (0) or an enabled custom domain. */
interface Route {
  domainId: number;
  domain: EdgeDomain | null;
}

const MAIN_ROUTE: Route = { domainId: 0, domain: null };

/**
 * The visitor edge: a plain node:http request handler placed in front of Nest. It answers
 * `/{alias}` (and the root of custom domains) from the in-process cache, records the visit in
 * memory and returns; everything else goes on to Nest. `handle` returns false for requests that
 * are not its own. Longer paths (`/{alias}/...`) are the files of static sites: they are claimed
 * while the link is looked up and handed to `next` (Nest) when the alias is not a static site.
 */
@Injectable()
export class EdgeService {
  private readonly logger = new Logger(EdgeService.name);
  private readonly mainHost: string;
  private readonly trusted: BlockList | null;
  private readonly secureCookies: boolean;
  /** Serves uploaded images (splash page logos) whatever host the visitor came by. */
  private readonly appOrigin: string;
  private readonly attempts = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly cache: EdgeCache,
    private readonly recorder: VisitRecorder,
    private readonly info: VisitorInfo,
    private readonly files: StaticFiles,
    @Inject(EDGE_SECRET) private readonly secret: Buffer,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const appUrl = new URL(config.appUrl);
    this.mainHost = appUrl.hostname.toLowerCase();
    this.secureCookies = appUrl.protocol === 'https:';
    this.appOrigin = appUrl.origin;
    this.trusted = buildTrustedProxies(config.trustedProxies);
  }

  handle(req: IncomingMessage, res: ServerResponse, next: RequestListener): boolean {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      return false;
    }
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const query = q === -1 || q === rawUrl.length - 1 ? null : rawUrl.slice(q + 1);
    const host = hostOf(req);
    const isMain = host === this.mainHost || host === '';

    if (path === '/') {
      if (isMain || method === 'POST') {
        return false;
      }
      this.withRoute(host, res, (route) => this.answerRoot(res, route, method === 'HEAD'));
      return true;
    }
    const match = LINK_PATH.exec(path);
    if (!match) {
      return false;
    }
    const alias = match[1];
    if (isReservedAlias(alias)) {
      return false;
    }
    const target: Target = {
      alias,
      path,
      query,
      rest: match[2] ?? null,
      passOn: () => next(req, res),
    };
    if (isMain) {
      this.withLink(MAIN_ROUTE, target, req, res);
    } else {
      this.withRoute(
        host,
        res,
        (route) => this.withLink(route, target, req, res),
        target.rest === null ? undefined : target.passOn,
      );
    }
    return true;
  }

  /**
   * Resolves the Host header to a route, synchronously when cached. A host that is no custom
   * domain (an IP address, another name of this server) serves the main domain; a custom domain
   * that is not enabled serves nothing.
   */
  private withRoute(
    host: string,
    res: ServerResponse,
    then: (route: Route) => void,
    disabled?: () => void,
  ): void {
    const cached = this.cache.peekHost(host);
    if (cached !== undefined) {
      this.routeTo(cached, res, then, disabled);
      return;
    }
    this.settle(
      res,
      this.cache.loadHost(host).then((domain) => this.routeTo(domain, res, then, disabled)),
    );
  }

  private routeTo(
    domain: EdgeDomain | null,
    res: ServerResponse,
    then: (route: Route) => void,
    disabled?: () => void,
  ): void {
    if (domain === null) {
      then(MAIN_ROUTE);
    } else if (domain.enabled) {
      then({ domainId: domain.id, domain });
    } else if (disabled) {
      disabled();
    } else {
      this.notFound(res, null, false);
    }
  }

  private withLink(route: Route, target: Target, req: IncomingMessage, res: ServerResponse): void {
    const cached = this.cache.peekLink(route.domainId, target.alias);
    if (cached !== undefined) {
      this.answer(route, cached, req, res, target);
      return;
    }
    this.settle(
      res,
      this.cache
        .loadLink(route.domainId, target.alias)
        .then((link) => this.answer(route, link, req, res, target)),
    );
  }

  /** The root of a custom domain goes to its index URL. */
  private answerRoot(res: ServerResponse, route: Route, head: boolean): void {
    if (route.domain?.indexUrl) {
      redirect(res, 302, route.domain.indexUrl, TEMPORARY_CACHE);
    } else {
      this.notFound(res, route.domain, head);
    }
  }

  /** A link's gates, in order: password, sensitive content, splash page, then the destination. */
  private answer(
    route: Route,
    link: EdgeLink | null,
    req: IncomingMessage,
    res: ServerResponse,
    target: Target,
  ): void {
    const { path, query, rest } = target;
    if (rest !== null && (link === null || link.site === null)) {
      // Not a static site: the path is Nest's, exactly as if the edge had not looked.
      target.passOn();
      return;
    }
    const head = req.method === 'HEAD';
    if (link === null || !link.enabled) {
      this.notFound(res, route.domain, head);
      return;
    }
    const now = Date.now();
    if (link.startMs !== null && now < link.startMs) {
      this.notFound(res, route.domain, head);
      return;
    }
    // The files of a site a page view was allowed to open are served even once that page view
    // reached the clicks limit; an end date closes every file.
    const pageView = link.site === null || isPageView(req);
    const ended = link.endMs !== null && now >= link.endMs;
    const overLimit =
      link.clicksLimit !== null && link.clicksAtLoad + link.clicksSinceLoad >= link.clicksLimit;
    if (ended || (overLimit && pageView)) {
      if (link.expirationUrl && pageView) {
        redirect(res, 302, link.expirationUrl, TEMPORARY_CACHE);
      } else {
        this.notFound(res, route.domain, head);
      }
      return;
    }
    if (link.site !== null) {
      this.answerSite(route, link, link.site, req, res, target);
      return;
    }
    const action = query === null ? path : `${path}?${query}`;
    if (req.method === 'POST') {
      this.answerPost(link, req, res, action);
      return;
    }
    if (link.passwordTag !== null && !this.hasPasswordCookie(req, link)) {
      page(res, 200, passwordPage(action, false), head);
      return;
    }
    if (link.sensitive && readCookie(req, `ld_sc_${link.id}`) !== '1') {
      page(res, 200, sensitiveContentPage(action), head);
      return;
    }
    const needsGeo =
      link.targetingType === 'country_code' || link.targetingType === 'continent_code';
    if (needsGeo && !this.info.geoReady()) {
      this.settle(
        res,
        this.info.loadGeo().then(() => this.redirectVisitor(link, req, res, query, head)),
      );
      return;
    }
    this.redirectVisitor(link, req, res, query, head);
  }

  /** The password form and the sensitive-content confirmation; other POSTs are refused. */
  private answerPost(link: EdgeLink, req: IncomingMessage, res: ServerResponse, action: string) {
    if (link.passwordHash === null && !link.sensitive) {
      res.writeHead(405, { ...PAGE_HEADERS, Allow: 'GET, HEAD' });
      res.end(methodNotAllowedPage());
      return;
    }
    this.settle(res, this.answerForm(link, req, res, action));
  }

  /**
   * `/{alias}/...` of a static site. Its pages run sandboxed with an opaque origin, so the requests
   * they make (stylesheets, scripts, images, frames) are cross-site and carry no SameSite=Lax
   * cookie: the splash page and sensitive-content gates apply to page views only (they protect
   * nothing secret), and the password gate opens those requests with a capability segment in the
   * path (site-access.ts) that a page view with the password cookie is sent to.
   */
  private answerSite(
    route: Route,
    link: EdgeLink,
    site: SiteRef,
    req: IncomingMessage,
    res: ServerResponse,
    target: Target,
  ): void {
    const { path, query } = target;
    const head = req.method === 'HEAD';
    const suffix = query === null ? '' : `?${query}`;
    const base = `/${target.alias}`;
    const access = splitSiteAccess(target.rest ?? '');
    if (access.token !== null && link.passwordTag === null && req.method !== 'POST') {
      // No password (any more): the token goes, so that URLs copied before keep working.
      redirect(res, 302, `${base}${access.rest || '/'}${suffix}`, TEMPORARY_CACHE);
      return;
    }
    if (access.rest === '') {
      // `/{alias}` goes to `/{alias}/`, so the pages' relative URLs resolve inside the site.
      redirect(res, 302, `${path}/${suffix}`, TEMPORARY_CACHE);
      return;
    }
    const action = `${path}${suffix}`;
    if (req.method === 'POST') {
      this.answerPost(link, req, res, action);
      return;
    }
    if (link.passwordTag !== null) {
      const cookie = this.hasPasswordCookie(req, link);
      const nowSeconds = Math.floor(Date.now() / 1000);
      const left =
        access.token !== null && isSignedFor(this.secret, link, access.token)
          ? access.token.exp - nowSeconds
          : 0;
      if (req.headers['sec-fetch-dest'] === 'document') {
        // A page in the address bar: the cookie decides, so that a copied URL opens nothing.
        if (!cookie) {
          page(res, 200, passwordPage(action, false), head);
          return;
        }
        if (left < SITE_ACCESS_RENEW_SECONDS) {
          const token = signSiteAccess(this.secret, link, nowSeconds + SITE_ACCESS_SECONDS);
          redirect(res, 302, `${base}/${token}${access.rest}${suffix}`, TEMPORARY_CACHE);
          return;
        }
      } else if (!cookie && left <= 0) {
        page(res, 200, passwordPage(action, false), head);
        return;
      }
    }
    if (isPageView(req)) {
      if (link.sensitive && readCookie(req, `ld_sc_${link.id}`) !== '1') {
        page(res, 200, sensitiveContentPage(action), head);
        return;
      }
      if (link.splash !== null && readCookie(req, `ld_sp_${link.id}`) !== '1') {
        // A site's splash page comes before its first page, once per browser session; the site's
        // page views are what is counted, so showing the splash page is not.
        const splash = splashPage(link.splash, action, this.appOrigin);
        page(res, 200, splash.html, head, {
          ...splash.headers,
          'Set-Cookie': this.cookie(`ld_sp_${link.id}`, '1', base, null),
        });
        return;
      }
    }
    const prefix = access.segment === null ? base : `${base}/${access.segment}`;
    this.serveSite(route, link, site, req, res, target, prefix, access.rest);
  }

  /**
   * Sends the file `rest` names under `prefix` (`/{alias}`, with the token of a protected site).
   * A version that is gone (replaced and swept, while this process's cached link missed the
   * invalidation) makes the link be read again, once.
   */
  private serveSite(
    route: Route,
    link: EdgeLink,
    site: SiteRef,
    req: IncomingMessage,
    res: ServerResponse,
    target: Target,
    prefix: string,
    rest: string,
  ): void {
    const { query } = target;
    const head = req.method === 'HEAD';
    const work = this.files.resolve(site, prefix, rest, query).then(async (answer) => {
      switch (answer.kind) {
        case 'bad-request':
          page(res, 404, notFoundPage(), head);
          return;
        case 'not-found':
          if (!target.reloaded && !(await this.files.exists(site))) {
            target.reloaded = true;
            const fresh = await this.cache.loadLink(route.domainId, target.alias);
            this.answer(route, fresh, req, res, target);
            return;
          }
          page(res, 404, notFoundPage(), head);
          return;
        case 'redirect':
          redirect(res, 302, answer.location, TEMPORARY_CACHE);
          return;
        case 'file':
          if (answer.html && !head && isPageView(req)) {
            this.countVisit(link, req, null, query);
          }
          await this.files.send(
            req,
            res,
            answer.file,
            answer.path,
            site,
            link.passwordTag === null ? SITE_CACHE : PROTECTED_SITE_CACHE,
          );
          return;
      }
    });
    this.settle(res, work);
  }

  /** Counts one visit (not for HEAD and bots, which the callers and this check exclude). */
  private countVisit(
    link: EdgeLink,
    req: IncomingMessage,
    ip: string | null,
    query: string | null,
  ): void {
    const userAgent = req.headers['user-agent'];
    if (this.info.isBot(userAgent)) {
      return;
    }
    link.clicksSinceLoad += 1;
    this.recorder.record({
      linkId: link.id,
      at: Date.now(),
      ip: ip ?? clientIp(req, this.trusted),
      userAgent: userAgent ?? '',
      referer: req.headers.referer,
      acceptLanguage: req.headers['accept-language'],
      query,
    });
  }

  private redirectVisitor(
    link: EdgeLink,
    req: IncomingMessage,
    res: ServerResponse,
    query: string | null,
    head: boolean,
  ): void {
    let ip: string | null = null;
    let destination = link.location;
    if (link.targetingType !== null) {
      if (link.targetingType === 'country_code' || link.targetingType === 'continent_code') {
        ip = clientIp(req, this.trusted);
      }
      destination = this.target(link, req, ip) ?? destination;
    }
    if (destination === null) {
      this.notFound(res, null, head);
      return;
    }
    if (link.forwardQuery && query !== null) {
      destination += (destination.includes('?') ? '&' : '?') + query;
    }
    if (!head) {
      this.countVisit(link, req, ip, query);
    }
    if (link.splash !== null) {
      // The visit is counted once, here: the page's continue button goes to the destination itself.
      const splash = splashPage(link.splash, destination, this.appOrigin);
      page(res, 200, splash.html, head, splash.headers);
      return;
    }
    const permanent = link.statusCode === 301 || link.statusCode === 308;
    redirect(res, link.statusCode, destination, permanent ? PERMANENT_CACHE : TEMPORARY_CACHE);
  }

  /** The destination of the first rule matching the visitor, or null to use the default. */
  private target(link: EdgeLink, req: IncomingMessage, ip: string | null): string | null {
    switch (link.targetingType) {
      case 'rotation': {
        let pick = randomInt(link.rotationTotal);
        for (const rule of link.targeting) {
          pick -= Number(rule.key);
          if (pick < 0) return rule.value;
        }
        return null;
      }
      case 'country_code': {
        const country = this.info.geo(ip ?? '').country_code;
        return link.targeting.find((r) => r.key === country)?.value ?? null;
      }
      case 'continent_code': {
        const continent = this.info.geo(ip ?? '').continent_code;
        return link.targeting.find((r) => r.key === continent)?.value ?? null;
      }
      case 'device_type': {
        const type = this.info.device(req.headers['user-agent']).device_type;
        return link.targeting.find((r) => r.key === type)?.value ?? null;
      }
      case 'os_name': {
        const os = this.info.device(req.headers['user-agent']).os_name?.toLowerCase();
        return link.targeting.find((r) => r.key.toLowerCase() === os)?.value ?? null;
      }
      case 'browser_name': {
        const browser = this.info.device(req.headers['user-agent']).browser_name?.toLowerCase();
        return link.targeting.find((r) => r.key.toLowerCase() === browser)?.value ?? null;
      }
      case 'browser_language': {
        const language = this.info.language(req.headers['accept-language']);
        return link.targeting.find((r) => r.key === language)?.value ?? null;
      }
      case null:
        return null;
    }
  }

  /** The password form and the sensitive-content confirmation post back to the link itself. */
  private async answerForm(
    link: EdgeLink,
    req: IncomingMessage,
    res: ServerResponse,
    action: string,
  ): Promise<void> {
    // The whole link, and for a static site every file under `/{alias}/`.
    const cookiePath = `/${link.alias}`;
    const form = await readForm(req);
    if (form === null) {
      res.writeHead(413, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
      res.end('The form is too large.\n');
      return;
    }
    const cookies: string[] = [];
    if (
      form.get('type') === 'password' &&
      link.passwordHash !== null &&
      link.passwordTag !== null
    ) {
      const ip = clientIp(req, this.trusted);
      if (!this.allowAttempt(`${link.id}|${ip}`)) {
        page(res, 429, tooManyAttemptsPage(), false, { 'Retry-After': '60' });
        return;
      }
      if (!(await verifyLinkPassword(form.get('password') ?? '', link.passwordHash))) {
        page(res, 403, passwordPage(action, true), false);
        return;
      }
      cookies.push(
        this.cookie(`ld_pw_${link.id}`, this.passwordToken(link), cookiePath, PASSWORD_COOKIE_DAYS),
      );
    } else if (form.get('type') === 'sensitive_content' && link.sensitive) {
      cookies.push(this.cookie(`ld_sc_${link.id}`, '1', cookiePath, 365));
    }
    res.writeHead(303, { Location: action, 'Cache-Control': 'no-store', 'Set-Cookie': cookies });
    res.end();
  }

  private allowAttempt(key: string): boolean {
    const now = Date.now();
    const entry = this.attempts.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.attempts.size > 100_000) this.attempts.clear();
      this.attempts.set(key, { count: 1, resetAt: now + 60_000 });
      return true;
    }
    entry.count += 1;
    return entry.count <= PASSWORD_ATTEMPTS_PER_MINUTE;
  }

  private passwordToken(link: EdgeLink): string {
    return createHmac('sha256', this.secret)
      .update(`link-password|${link.id}|${link.passwordTag ?? ''}`)
      .digest('base64url');
  }

  private hasPasswordCookie(req: IncomingMessage, link: EdgeLink): boolean {
    const value = readCookie(req, `ld_pw_${link.id}`);
    if (value === null) {
      return false;
    }
    const expected = Buffer.from(this.passwordToken(link));
    const actual = Buffer.from(value);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  /** An HttpOnly cookie for the link's paths; `days` null = for the browser session. */
  private cookie(name: string, value: string, path: string, days: number | null): string {
    const secure = this.secureCookies ? '; Secure' : '';
    const age = days === null ? '' : `; Max-Age=${days * 86400}`;
    return `${name}=${value}${age}; Path=${path}; HttpOnly; SameSite=Lax${secure}`;
  }

  private notFound(res: ServerResponse, domain: EdgeDomain | null, head: boolean): void {
    if (domain?.notFoundUrl) {
      redirect(res, 302, domain.notFoundUrl, TEMPORARY_CACHE);
      return;
    }
    page(res, 404, notFoundPage(), head);
  }

  /**
   * Ends the request with a 503 if `work` fails, whichever step of it throws: the continuation of
   * an asynchronous step runs inside `work`, so nothing it throws can become an unhandled
   * rejection (which would stop the process).
   */
  private settle(res: ServerResponse, work: Promise<unknown>): void {
    work.catch((error: unknown) => this.fail(res, error));
  }

  /**
   * Answers 503 (or drops the connection once headers are out) and logs the fault. A client that
   * went away in the middle of a download is no fault: the connection is dropped without a word.
   * Never throws: it is the last resort of every visitor request.
   */
  fail(res: ServerResponse, error: unknown): void {
    try {
      if (isClientGone(error)) {
        res.destroy();
        return;
      }
      this.logger.error(
        `Visitor request failed: ${error instanceof Error ? error.stack : String(error)}`,
      );
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
}

/** The link a request names: `rest` is the path after `/{alias}` (null when there is none). */
interface Target {
  alias: string;
  path: string;
  query: string | null;
  rest: string | null;
  passOn: () => void;
  /** Set once the link was read again because the version it pointed at was gone. */
  reloaded?: boolean;
}

/** Errors of a response whose client closed the connection before it was complete. */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

export function isClientGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLIENT_GONE.has(code);
}

/**
 * A page view is a document the browser navigates to (or frames), not a fetch of the page by a
 * script; clients that send no Sec-Fetch-Dest count too.
 */
function isPageView(req: IncomingMessage): boolean {
  const dest = req.headers['sec-fetch-dest'];
  return dest === undefined || dest === 'document' || dest === 'iframe' || dest === 'frame';
}

/** The Host header's name, lower-case, without port; '' when absent or malformed. */
function hostOf(req: IncomingMessage): string {
  const header = req.headers.host;
  if (!header) {
    return '';
  }
  let host = header.toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? '' : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  if (colon !== -1) {
    host = host.slice(0, colon);
  }
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

function redirect(res: ServerResponse, status: number, location: string, cache: string): void {
  res.writeHead(status, { Location: location, 'Cache-Control': cache, 'Content-Length': '0' });
  res.end();
}

function page(
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

function readCookie(req: IncomingMessage, name: string): string | null {
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

/** A small urlencoded form body, or null when it is larger than the limit. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
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
