import { Injectable } from '@nestjs/common';
import type { SiteRef } from '@app/storage';
import { VisitorCache } from '../cache/visitor-cache.service';
import type { VisitorLink } from '../cache/visitor-link';
import { isPageView, page, redirect, settle, TEMPORARY_CACHE } from '../http';
import { notFoundPage } from '../pages/visitor-pages';
import type { Visit } from '../visit';
import { VisitCounter } from '../visit-counter';
import { splitSiteAccess } from './site-access';
import { StaticFiles } from './static-files';

/** Files of static sites are revalidated on every use (ETag / Last-Modified make that cheap). */
const SITE_CACHE = 'no-cache';
const PROTECTED_SITE_CACHE = 'private, no-cache';

/**
 * `/{alias}/...` of a static site: its URLs' own redirects before the gates, its files after them.
 * Its pages run sandboxed with an opaque origin, so the requests they make (stylesheets, scripts,
 * images, frames) are cross-site and carry no SameSite=Lax cookie: the splash page and
 * sensitive-content gates apply to page views only (they protect nothing secret), and the
 * password gate opens those requests with a capability segment in the path (site-access.ts) that
 * a page view with the password cookie is sent to.
 */
@Injectable()
export class SiteServer {
  constructor(
    private readonly files: StaticFiles,
    private readonly cache: VisitorCache,
    private readonly counter: VisitCounter,
  ) {}

  /**
   * Splits the capability segment off the path (for the password gate) and answers the
   * redirects of a site's URLs: a token the site no longer needs, `/{alias}` without its slash.
   */
  redirects(visit: Visit, link: VisitorLink): boolean {
    const access = splitSiteAccess(visit.rest ?? '');
    visit.access = access;
    if (access.token !== null && link.passwordTag === null && visit.req.method !== 'POST') {
      // No password (any more): the token goes, so that URLs copied before keep working.
      const suffix = visit.sentQuery === null ? '' : `?${visit.sentQuery}`;
      redirect(visit, 302, `/${visit.alias}${access.rest || '/'}${suffix}`, TEMPORARY_CACHE);
      return true;
    }
    if (access.rest === '') {
      // `/{alias}` goes to `/{alias}/`, so the pages' relative URLs resolve inside the site.
      const suffix = visit.sentQuery === null ? '' : `?${visit.sentQuery}`;
      redirect(visit, 302, `${visit.path}/${suffix}`, TEMPORARY_CACHE);
      return true;
    }
    return false;
  }

  /**
   * Sends the file the path names under `/{alias}` (with the token of a protected site). A
   * version that is gone (replaced and swept, while this process's cached link missed the
   * invalidation) makes the link be read again, once, and `again` answer the visit with it.
   */
  serve(
    visit: Visit,
    link: VisitorLink,
    site: SiteRef,
    again: (visit: Visit, link: VisitorLink | null) => void,
  ): void {
    const { req, res, head, access, query } = visit;
    const base = `/${visit.alias}`;
    const prefix = access.segment === null ? base : `${base}/${access.segment}`;
    const work = this.files.resolve(site, prefix, access.rest, query).then(async (answer) => {
      switch (answer.kind) {
        case 'bad-request':
          page(res, 404, notFoundPage(), head);
          return;
        case 'not-found':
          if (!visit.reloaded && !(await this.files.exists(site))) {
            visit.reloaded = true;
            again(visit, await this.cache.loadLink(visit.domainId, visit.alias));
            return;
          }
          page(res, 404, notFoundPage(), head);
          return;
        case 'redirect':
          redirect(visit, 302, answer.location, TEMPORARY_CACHE);
          return;
        case 'file':
          if (answer.html && (head || isPageView(req))) {
            this.counter.count(visit, link);
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
    settle(res, work);
  }
}
