import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { asciiLocation, buildTrustedProxies, clientIp, type TrustedProxies } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { verifyLinkPassword } from '@app/links';
import type { VisitorLink } from '../cache/visitor-link';
import {
  cookie,
  page,
  readCookie,
  readForm,
  redirect,
  secureCookies,
  settle,
  TEMPORARY_CACHE,
} from '../http';
import {
  methodNotAllowedPage,
  PAGE_HEADERS,
  passwordPage,
  tooManyAttemptsPage,
} from '../pages/visitor-pages';
import {
  isSignedFor,
  SITE_ACCESS_RENEW_SECONDS,
  SITE_ACCESS_SECONDS,
  signSiteAccess,
} from '../static/site-access';
import type { Visit } from '../visit';
import { VISITOR_SECRET } from '../visitor-secret';
import type { Gate } from './gate';
import { sensitiveCookie } from './sensitive.gate';

const PASSWORD_COOKIE_DAYS = 30;
/** Attempts a minute at one link from one address. */
export const PASSWORD_ATTEMPTS_PER_ADDRESS = 10;
/**
 * Attempts a minute at one link from all addresses together, so that many addresses cannot guess
 * faster than this. Counted before the password is checked (a blocked link confirms no guess), so
 * right ones count too.
 */
export const PASSWORD_ATTEMPTS_PER_LINK = 30;
const MINUTE_MS = 60_000;

/**
 * The password: a protected link shows its form until the visitor holds the link's signed cookie,
 * which posting the right password sets (attempts limited per link and address, and per link).
 * The counters are the rate limiter's (Redis when configured), shared by every instance. A new
 * password changes the link's tag, so the cookies of the old one stop working.
 */
@Injectable()
export class PasswordGate implements Gate {
  private readonly trusted: TrustedProxies | null;
  private readonly secureCookies: boolean;

  constructor(
    @Inject(VISITOR_SECRET) private readonly secret: Buffer,
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectThrottlerStorage() private readonly limits: ThrottlerStorage,
  ) {
    this.secureCookies = secureCookies(config.appUrl);
    this.trusted = buildTrustedProxies(config.trustedProxies);
  }

  check(visit: Visit, link: VisitorLink): boolean {
    if (link.passwordTag === null) {
      return false;
    }
    if (link.site !== null) {
      return this.checkSite(visit, link);
    }
    if (this.hasPasswordCookie(visit.req, link)) {
      return false;
    }
    page(visit.res, 200, passwordPage(visit.action(), false), visit.head);
    return true;
  }

  /**
   * A static site's pages run sandboxed with an opaque origin: the requests they make carry no
   * SameSite=Lax cookie, so they are opened by a capability segment in the path (site-access.ts)
   * that a page view with the password cookie is sent to.
   */
  private checkSite(visit: Visit, link: VisitorLink): boolean {
    const { req, access } = visit;
    const cookie = this.hasPasswordCookie(req, link);
    const nowSeconds = Math.floor(Date.now() / 1000);
    const left =
      access.token !== null && isSignedFor(this.secret, link, access.token)
        ? access.token.exp - nowSeconds
        : 0;
    if (req.headers['sec-fetch-dest'] === 'document') {
      // A page in the address bar: the cookie decides, so that a copied URL opens nothing.
      if (!cookie) {
        page(visit.res, 200, passwordPage(visit.action(), false), visit.head);
        return true;
      }
      if (left < SITE_ACCESS_RENEW_SECONDS) {
        const token = signSiteAccess(this.secret, link, nowSeconds + SITE_ACCESS_SECONDS);
        const suffix = visit.query === null ? '' : `?${visit.query}`;
        const location = `/${visit.alias}/${token}${access.rest}${suffix}`;
        redirect(visit, 302, location, TEMPORARY_CACHE);
        return true;
      }
    } else if (!cookie && left <= 0) {
      page(visit.res, 200, passwordPage(visit.action(), false), visit.head);
      return true;
    }
    return false;
  }

  /** The password form and the sensitive-content confirmation; other POSTs are refused. */
  answerPost(visit: Visit, link: VisitorLink): void {
    if (link.passwordHash === null && !link.sensitive) {
      visit.res.writeHead(405, { ...PAGE_HEADERS, Allow: 'GET, HEAD' });
      visit.res.end(methodNotAllowedPage());
      return;
    }
    settle(visit.res, this.answerForm(visit, link));
  }

  /** The password form and the sensitive-content confirmation post back to the link itself. */
  private async answerForm(visit: Visit, link: VisitorLink): Promise<void> {
    const { req, res } = visit;
    const action = visit.action();
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
      if (!(await this.allowAttempt(link.id, ip))) {
        page(res, 429, tooManyAttemptsPage(), false, { 'Retry-After': '60' });
        return;
      }
      if (!(await verifyLinkPassword(form.get('password') ?? '', link.passwordHash))) {
        page(res, 403, passwordPage(action, true), false);
        return;
      }
      const token = this.passwordToken(link);
      cookies.push(
        cookie(`ld_pw_${link.id}`, token, cookiePath, PASSWORD_COOKIE_DAYS, this.secureCookies),
      );
    } else if (form.get('type') === 'sensitive_content' && link.sensitive) {
      cookies.push(cookie(sensitiveCookie(link.id), '1', cookiePath, 365, this.secureCookies));
    }
    res.writeHead(303, {
      Location: asciiLocation(action),
      'Cache-Control': 'no-store',
      'Set-Cookie': cookies,
    });
    res.end();
  }

  /** Counts an attempt from `ip` at the link; false when its address or the link is over its limit. */
  private async allowAttempt(linkId: number, ip: string): Promise<boolean> {
    const byAddress = await this.limits.increment(
      `link-password:${linkId}:${ip}`,
      MINUTE_MS,
      PASSWORD_ATTEMPTS_PER_ADDRESS,
      MINUTE_MS,
      'link-password',
    );
    // An address over its own limit does not use up the link's.
    if (byAddress.isBlocked) return false;
    const byLink = await this.limits.increment(
      `link-password:${linkId}`,
      MINUTE_MS,
      PASSWORD_ATTEMPTS_PER_LINK,
      MINUTE_MS,
      'link-password',
    );
    return !byLink.isBlocked;
  }

  private passwordToken(link: VisitorLink): string {
    return createHmac('sha256', this.secret)
      .update(`link-password|${link.id}|${link.passwordTag ?? ''}`)
      .digest('base64url');
  }

  private hasPasswordCookie(req: IncomingMessage, link: VisitorLink): boolean {
    const value = readCookie(req, `ld_pw_${link.id}`);
    if (value === null) {
      return false;
    }
    const expected = Buffer.from(this.passwordToken(link));
    const actual = Buffer.from(value);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
