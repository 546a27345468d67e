import { Injectable } from '@nestjs/common';
import type { VisitorLink } from '../cache/visitor-link';
import { page, readCookie } from '../http';
import { sensitiveContentPage } from '../pages/visitor-pages';
import type { Visit } from '../visit';
import { type Gate, isPageViewOf } from './gate';

/** The cookie a visitor gets by confirming (the form posts to the link: password.gate.ts). */
export function sensitiveCookie(linkId: number): string {
  return `ld_sc_${linkId}`;
}

/**
 * Sensitive content: page views show a warning until the visitor confirms, once per browser. It
 * protects nothing secret, so the files a static site's pages load pass without it.
 */
@Injectable()
export class SensitiveGate implements Gate {
  check(visit: Visit, link: VisitorLink): boolean {
    if (
      !link.sensitive ||
      !isPageViewOf(visit, link) ||
      readCookie(visit.req, sensitiveCookie(link.id)) === '1'
    ) {
      return false;
    }
    page(visit.res, 200, sensitiveContentPage(visit.action()), visit.head);
    return true;
  }
}
