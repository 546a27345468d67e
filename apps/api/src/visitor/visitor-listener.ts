import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import type { SiteRef } from '@app/storage';
import type { VisitorLink } from './cache/visitor-link';
import { ClicksLimitGate } from './gates/clicks-limit.gate';
import { PasswordGate } from './gates/password.gate';
import { PreviewGate } from './gates/preview.gate';
import { ScheduleGate } from './gates/schedule.gate';
import { SensitiveGate } from './gates/sensitive.gate';
import { SplashGate } from './gates/splash.gate';
import { TargetingGate } from './gates/targeting.gate';
import { notFound, page, PERMANENT_CACHE, redirect, settle, TEMPORARY_CACHE } from './http';
import type { VisitorBio } from './pages/bio-page';
import { bioBlockId, BioPages } from './pages/bio-pages.service';
import { rootPage } from './pages/visitor-pages';
import { VisitorRouter } from './router';
import { SiteServer } from './static/site-server';
import type { RequestListener, Visit } from './visit';
import { VisitCounter } from './visit-counter';

/**
 * The visitor side: a plain node:http request handler placed in front of Nest. It answers
 * `/{alias}` from the in-process cache, records the visit in memory and returns, and `/` (a page
 * on the main domain, a custom domain's index URL); everything else goes on to Nest. `handle`
 * returns false for requests that are not its own. Longer paths (`/{alias}/...`) are the files
 * of static sites: they are claimed while the link is looked up and handed to `next` (Nest) when
 * the alias is not a static site.
 *
 * A visit meets, in order: which host, which link, the schedule, the clicks limit, then for a
 * static site its own URLs, or a link-preview fetcher's page, the password, sensitive content, targeting, the splash page and
 * the redirect. A bio page (type biolink) is rendered after the password and sensitive-content
 * gates instead of the redirect; its `/{alias}/b/{block}` addresses are its link blocks' counted
 * redirects and its collector forms. Only the cache loads, the geo database, appointment slots
 * and form posts are asynchronous.
 */
@Injectable()
export class VisitorListener {
  constructor(
    private readonly router: VisitorRouter,
    private readonly schedule: ScheduleGate,
    private readonly clicksLimit: ClicksLimitGate,
    private readonly preview: PreviewGate,
    private readonly password: PasswordGate,
    private readonly sensitive: SensitiveGate,
    private readonly targeting: TargetingGate,
    private readonly splash: SplashGate,
    private readonly counter: VisitCounter,
    private readonly sites: SiteServer,
    private readonly bioPages: BioPages,
  ) {}

  handle(req: IncomingMessage, res: ServerResponse, next: RequestListener): boolean {
    const visit = this.router.parse(req, res, next);
    if (visit === null) {
      return false;
    }
    this.router.route(visit, visit.alias === '' ? this.answerRoot : this.findLink);
    return true;
  }

  // The steps that follow a lookup, bound once rather than a closure per request.
  private readonly findLink = (visit: Visit): void => this.router.link(visit, this.answerLink);
  private readonly answerLink = (visit: Visit, link: VisitorLink | null): void =>
    this.answer(visit, link);

  /** The root: the main domain's page; a custom domain's index URL, or its 404. */
  private readonly answerRoot = (visit: Visit): void => {
    if (visit.domain === null) {
      page(visit.res, 200, rootPage(), visit.head);
    } else if (visit.domain.indexUrl) {
      redirect(visit, 302, visit.domain.indexUrl, TEMPORARY_CACHE);
    } else {
      notFound(visit, visit.domain, visit.head);
    }
  };

  /** A link's gates, in the order a visitor meets them. */
  private answer(visit: Visit, link: VisitorLink | null): void {
    const blockId = link?.bio && visit.rest !== null ? bioBlockId(visit.rest) : null;
    if (visit.rest !== null && (link === null || link.site === null) && blockId === null) {
      // Not a static site: the path is Nest's, exactly as if the listener had not looked.
      visit.passOn();
      return;
    }
    if (link === null || !link.enabled) {
      notFound(visit, visit.domain, visit.head);
      return;
    }
    if (this.schedule.check(visit, link) || this.clicksLimit.check(visit, link)) {
      return;
    }
    if (link.site !== null) {
      this.answerSite(visit, link, link.site);
      return;
    }
    if (link.bio !== null && blockId !== null) {
      // A bio page's block address: a counted link-block redirect or a collector's form post,
      // behind the page's password and sensitive-content gates.
      if (this.password.check(visit, link) || this.sensitive.check(visit, link)) {
        return;
      }
      this.bioPages.answerBlock(visit, link, link.bio, blockId);
      return;
    }
    if (visit.req.method === 'POST') {
      this.password.answerPost(visit, link);
      return;
    }
    if (
      this.preview.check(visit, link) ||
      this.password.check(visit, link) ||
      this.sensitive.check(visit, link)
    ) {
      return;
    }
    if (link.bio !== null) {
      this.answerBio(visit, link, link.bio);
      return;
    }
    const geo = this.targeting.geoLoading(link);
    if (geo !== null) {
      settle(
        visit.res,
        geo.then(() => this.toDestination(visit, link)),
      );
      return;
    }
    this.toDestination(visit, link);
  }

  /** Targeting picks the destination, the visit is counted, then the splash page or redirect. */
  private toDestination(visit: Visit, link: VisitorLink): void {
    if (this.targeting.check(visit, link)) {
      return;
    }
    // A HEAD request is counted as a bot's visit (visit-counter.ts).
    this.counter.count(visit, link);
    if (this.splash.check(visit, link)) {
      return;
    }
    const permanent = link.statusCode === 301 || link.statusCode === 308;
    const cache = permanent ? PERMANENT_CACHE : TEMPORARY_CACHE;
    redirect(visit, link.statusCode, visit.destination, cache);
  }

  /**
   * A bio page: its splash page first when it has one (once a browser session, not counted),
   * then the page view is counted and the page served from the cached, compiled page.
   */
  private answerBio(visit: Visit, link: VisitorLink, bio: VisitorBio): void {
    if (this.splash.check(visit, link)) {
      return;
    }
    // A HEAD request is counted as a bot's visit (visit-counter.ts).
    this.counter.count(visit, link);
    this.bioPages.show(visit, link, bio);
  }

  /** A static site: its URLs' redirects, the same gates (page views only), then its files. */
  private answerSite(visit: Visit, link: VisitorLink, site: SiteRef): void {
    if (this.sites.redirects(visit, link)) {
      return;
    }
    if (visit.req.method === 'POST') {
      this.password.answerPost(visit, link);
      return;
    }
    if (
      this.password.check(visit, link) ||
      this.sensitive.check(visit, link) ||
      this.splash.check(visit, link)
    ) {
      return;
    }
    this.sites.serve(visit, link, site, this.answerLink);
  }
}
