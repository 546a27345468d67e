import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { VisitorLink } from '../cache/visitor-link';
import { cookie, isPageView, page, readCookie, secureCookies } from '../http';
import { splashPage } from '../pages/splash-page';
import type { Visit } from '../visit';
import type { Gate } from './gate';

/**
 * The splash page. A redirect link shows it instead of the redirect, once the visit is counted:
 * its continue button goes to the destination itself. A static site and a bio page show it before
 * their first page of a browser session.
 */
@Injectable()
export class SplashGate implements Gate {
  /** Serves uploaded images (splash page logos) whatever host the visitor came by. */
  private readonly appOrigin: string;
  private readonly secureCookies: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.appOrigin = new URL(config.appUrl).origin;
    this.secureCookies = secureCookies(config.appUrl);
  }

  check(visit: Visit, link: VisitorLink): boolean {
    if (link.splash === null) {
      return false;
    }
    if (link.site === null && link.bio === null) {
      const splash = splashPage(link.splash, visit.destination, this.appOrigin);
      page(visit.res, 200, splash.html, visit.head, splash.headers);
      return true;
    }
    if (!isPageView(visit.req) || readCookie(visit.req, `ld_sp_${link.id}`) === '1') {
      return false;
    }
    // A static site's or bio page's page views are what is counted, so showing the splash page
    // is not; its continue button goes to the page itself.
    const splash = splashPage(link.splash, visit.action(), this.appOrigin);
    page(visit.res, 200, splash.html, visit.head, {
      ...splash.headers,
      'Set-Cookie': cookie(`ld_sp_${link.id}`, '1', `/${visit.alias}`, null, this.secureCookies),
    });
    return true;
  }
}
