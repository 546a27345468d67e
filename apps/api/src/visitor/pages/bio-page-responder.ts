import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { VisitorLink } from '../cache/visitor-link';
import type { Visit } from '../visit';
import { VISITOR_SECRET } from '../visitor-secret';
import { type SlotWindow, slotsPerBlock } from './appointment-slots';
import { type FormState, renderBioPage, type VisitorBio } from './bio-page';
import { SlotCache } from './slot-cache.service';
import { pageHeaders } from './visitor-pages';

/** How long a form token lasts, and how long a rendered page (with its tokens) is reused. */
export const FORM_TOKEN_SECONDS = 2 * 3600;

/**
 * What the page and its forms answer with: a bio page rendered with its appointment slots and
 * signed form tokens, sent with the visitor pages' headers and this page's CSP.
 */
@Injectable()
export class BioPageResponder {
  private readonly csp: string;

  constructor(
    @Inject(VISITOR_SECRET) private readonly secret: Buffer,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly slotCache: SlotCache,
    private readonly clock: Clock,
  ) {
    const appOrigin = new URL(config.appUrl).origin;
    // Images come from APP_URL/uploads whatever host shows the page. Forms post to the page, which
    // may answer 303 to the block's thank-you URL: form-action follows the redirect chain.
    this.csp = `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' ${appOrigin}; form-action 'self' http: https:; base-uri 'none'; frame-ancestors 'none'`;
  }

  /**
   * The slots each appointment block shows: its first ones (cached), the focused block's from a
   * chosen time; as many as the page's slot budget leaves each block.
   */
  async slotsOf(
    bio: VisitorBio,
    nowMs: number,
    focus: { blockId: number; fromMs: number } | null,
  ): Promise<Map<number, SlotWindow>> {
    const calendars = bio.blocks.filter((b) => b.type === 'appointment_calendar');
    const limit = slotsPerBlock(calendars.length);
    this.slotCache.prefetch(calendars, nowMs);
    const windows = await Promise.all(
      calendars.map((b) =>
        this.slotCache.window(b, nowMs, focus?.blockId === b.id ? focus.fromMs : null, limit),
      ),
    );
    return new Map(calendars.map((b, i) => [b.id, windows[i]]));
  }

  render(
    visit: Visit,
    link: VisitorLink,
    bio: VisitorBio,
    slots: Map<number, SlotWindow>,
    state: FormState | null,
    laterOf: number | null = null,
  ): string {
    const exp = Math.floor(this.clock.now().getTime() / 1000) + FORM_TOKEN_SECONDS;
    return renderBioPage(bio, {
      base: `/${visit.alias}`,
      token: (blockId) => `${exp}.${this.sign(link, blockId, exp)}`,
      slots,
      laterOf,
      state,
    });
  }

  send(visit: Visit, bio: VisitorBio, status: number, html: string): void {
    const body = Buffer.from(html);
    visit.res.writeHead(status, this.headers(bio, status, body.length));
    visit.res.end(visit.head ? undefined : body);
  }

  /** The visitor pages' headers with this page's CSP; indexable unless `seo_noindex`. */
  headers(bio: VisitorBio, status: number, length: number): Record<string, string | number> {
    const headers: Record<string, string | number> = {
      ...pageHeaders(this.csp),
      'Content-Length': length,
    };
    if (!bio.settings.seo_noindex) {
      delete headers['X-Robots-Tag'];
    }
    if (status === 429) headers['Retry-After'] = '60';
    return headers;
  }

  /** A form token: its expiry and an HMAC of it, the link and the block with the app's secret. */
  private sign(link: VisitorLink, blockId: number, exp: number): string {
    return createHmac('sha256', this.secret)
      .update(`bio-form|${link.id}|${blockId}|${exp}`)
      .digest('base64url');
  }

  validToken(link: VisitorLink, blockId: number, token: string, nowMs: number): boolean {
    const dot = token.indexOf('.');
    const exp = Number(token.slice(0, dot));
    if (dot <= 0 || !Number.isInteger(exp) || exp * 1000 <= nowMs) {
      return false;
    }
    const expected = Buffer.from(this.sign(link, blockId, exp));
    const actual = Buffer.from(token.slice(dot + 1));
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
