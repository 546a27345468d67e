import type { VisitorLink } from '../cache/visitor-link';
import { isPageView, notFound, redirect, TEMPORARY_CACHE } from '../http';
import type { Visit } from '../visit';

/**
 * One gate between a visitor and a link. `check` either answers the visit (a page, a redirect, a
 * 404) and returns true, or returns false to let it through to the next step. Gates are
 * synchronous: the asynchronous steps (cache loads, the geo database) happen around them.
 */
export interface Gate {
  check(visit: Visit, link: VisitorLink): boolean;
}

/**
 * Whether the visit is a page view: every visit of a redirect link; of a static site, a page the
 * browser navigates to or frames, not the requests for its stylesheets, scripts and images.
 */
export function isPageViewOf(visit: Visit, link: VisitorLink): boolean {
  return link.site === null || isPageView(visit.req);
}

/** A link past its end date or its clicks limit: page views go to its expiration URL, or 404. */
export function answerExpired(visit: Visit, link: VisitorLink): void {
  if (link.expirationUrl && isPageViewOf(visit, link)) {
    redirect(visit, 302, link.expirationUrl, TEMPORARY_CACHE);
  } else {
    notFound(visit, visit.domain, visit.head);
  }
}
