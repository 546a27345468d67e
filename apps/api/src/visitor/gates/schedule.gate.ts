import { Injectable } from '@nestjs/common';
import type { VisitorLink } from '../cache/visitor-link';
import { notFound } from '../http';
import type { Visit } from '../visit';
import { answerExpired, type Gate } from './gate';

/**
 * The link's start and end dates: before its start a link does not exist (404); from its end on
 * it is expired. An end date closes every file of a static site, not only its pages.
 */
@Injectable()
export class ScheduleGate implements Gate {
  check(visit: Visit, link: VisitorLink): boolean {
    const now = Date.now();
    if (link.startMs !== null && now < link.startMs) {
      notFound(visit, visit.domain, visit.head);
      return true;
    }
    if (link.endMs !== null && now >= link.endMs) {
      answerExpired(visit, link);
      return true;
    }
    return false;
  }
}
