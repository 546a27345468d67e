import { Injectable } from '@nestjs/common';
import type { VisitorLink } from '../cache/visitor-link';
import type { Visit } from '../visit';
import { answerExpired, type Gate, isPageViewOf } from './gate';

/**
 * The link's clicks limit: once its counted visits reach it, page views are expired. The files of
 * a site a page view was allowed to open are served even once that page view reached the limit.
 */
@Injectable()
export class ClicksLimitGate implements Gate {
  check(visit: Visit, link: VisitorLink): boolean {
    const overLimit =
      link.clicksLimit !== null && link.clicksAtLoad + link.clicksSinceLoad >= link.clicksLimit;
    if (!overLimit || !isPageViewOf(visit, link)) {
      return false;
    }
    answerExpired(visit, link);
    return true;
  }
}
