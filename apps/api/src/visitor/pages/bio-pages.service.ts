import { Injectable } from '@nestjs/common';
import { Clock, parseId } from '@app/common';
import { BiolinkBlocksRepository } from '@app/database';
import { locationOf, type VisitorLink } from '../cache/visitor-link';
import { notFound, page, redirect, settle, TEMPORARY_CACHE } from '../http';
import type { Visit } from '../visit';
import type { SlotWindow } from './appointment-slots';
import { BioForms, SLOTS_FROM } from './bio-forms.service';
import { COLLECTOR_FIELDS, type VisitorBio, type VisitorBlock } from './bio-page';
import { BioPageResponder } from './bio-page-responder';
import { badSlotsFromPage } from './visitor-pages';

const RENDER_REUSE_MS = 15 * 60_000;
/** How long a page with appointments is reused at most (a booking here drops it at once). */
export const SLOTS_REUSE_MS = 30_000;
const BLOCK_REST = /^\/b\/([^/]+)$/;

/** The block a `/{alias}/b/{id}` path names (the API's one rule for ids), or null for any other path. */
export function bioBlockId(rest: string): number | null {
  const match = BLOCK_REST.exec(rest);
  return match ? parseId(match[1]) : null;
}

/**
 * Bio pages (links of type biolink) for visitors: the page, its link blocks' counted redirects
 * (`/{alias}/b/{id}`), and its collector forms, which post to the same address without script
 * (`BioForms`).
 */
@Injectable()
export class BioPages {
  constructor(
    private readonly blocks: BiolinkBlocksRepository,
    private readonly forms: BioForms,
    private readonly responder: BioPageResponder,
    private readonly clock: Clock,
  ) {}

  /**
   * The page itself (GET and HEAD). The visit is counted by the caller. The page as first shown
   * is rendered once and reused; with appointments, until a booking here, until its first slot
   * comes too close, or SLOTS_REUSE_MS. Later slots are shown by showLater.
   */
  show(visit: Visit, link: VisitorLink, bio: VisitorBio): void {
    const now = this.clock.now().getTime();
    const fresh = bio.rendered !== null && bio.rendered.freshUntil > now;
    if (!bio.hasAppointments) {
      if (!fresh) {
        this.keep(
          bio,
          this.responder.render(visit, link, bio, new Map(), null),
          now + RENDER_REUSE_MS,
        );
      }
      this.sendKept(visit, bio);
      return;
    }
    if (fresh) {
      this.sendKept(visit, bio);
      return;
    }
    settle(
      visit.res,
      this.responder.slotsOf(bio, now, null).then((slots) => {
        // Views that waited together for the slots: the first renders, the others reuse it.
        if (bio.rendered === null || bio.rendered.freshUntil <= now) {
          const html = this.responder.render(visit, link, bio, slots, null);
          this.keep(bio, html, slotsFreshUntil(bio, slots, now));
        }
        this.sendKept(visit, bio);
      }),
    );
  }

  /**
   * `GET /{alias}/b/{id}?slots_from=`: an appointment block's later slots, on a page of its own
   * (that block alone), so a later window costs one block's slots, never the whole page's.
   */
  private showLater(visit: Visit, link: VisitorLink, bio: VisitorBio, block: VisitorBlock): void {
    const from = new URLSearchParams(visit.query ?? '').get('slots_from') ?? '';
    if (!SLOTS_FROM.test(from)) {
      page(visit.res, 400, badSlotsFromPage(visit.alias), visit.head);
      return;
    }
    const focus = { blockId: block.id, fromMs: Number(from) };
    const alone: VisitorBio = { ...bio, blocks: [block], rendered: null };
    settle(
      visit.res,
      this.responder
        .slotsOf(alone, this.clock.now().getTime(), focus)
        .then((slots) =>
          this.responder.send(
            visit,
            bio,
            200,
            this.responder.render(visit, link, alone, slots, null, focus.blockId),
          ),
        ),
    );
  }

  /** Keeps a rendered page, encoded with its headers (what a view sends), until `freshUntil`. */
  private keep(bio: VisitorBio, html: string, freshUntil: number): void {
    const body = Buffer.from(html);
    const headers = Object.entries(this.responder.headers(bio, 200, body.length));
    bio.rendered = { body, headers: headers.flatMap(([k, v]) => [k, String(v)]), freshUntil };
  }

  /** The kept page: one buffer and one header object for every view. */
  private sendKept(visit: Visit, bio: VisitorBio): void {
    const kept = bio.rendered!;
    visit.res.writeHead(200, kept.headers);
    visit.res.end(visit.head ? undefined : kept.body);
  }

  /** `/{alias}/b/{id}`: a link block's click (GET, counted) or a collector's form (POST). */
  answerBlock(visit: Visit, link: VisitorLink, bio: VisitorBio, blockId: number): void {
    const block = bio.blocks.find((b) => b.id === blockId);
    const method = visit.req.method;
    if (block && block.type === 'link' && (method === 'GET' || method === 'HEAD')) {
      const location = locationOf(
        typeof block.settings.location_url === 'string' ? block.settings.location_url : null,
      );
      if (location === null) {
        notFound(visit, visit.domain, visit.head);
        return;
      }
      const counted = visit.head ? Promise.resolve() : this.blocks.countClick(block.id);
      settle(
        visit.res,
        counted.then(() => redirect(visit, 302, location, TEMPORARY_CACHE)),
      );
      return;
    }
    if (block && block.type in COLLECTOR_FIELDS) {
      const later = new URLSearchParams(visit.query ?? '').has('slots_from');
      if (block.type === 'appointment_calendar' && later && method !== 'POST') {
        this.showLater(visit, link, bio, block);
      } else if (method === 'POST') {
        settle(visit.res, this.forms.submit(visit, link, bio, block));
      } else {
        // The form's own address, opened directly: the page.
        redirect(visit, 303, `/${visit.alias}#b${block.id}`, TEMPORARY_CACHE);
      }
      return;
    }
    notFound(visit, visit.domain, visit.head);
  }
}

/**
 * Until when a page showing these slots may be reused: until its first slot comes too close to
 * be booked, SLOTS_REUSE_MS at most, and a second at least.
 */
function slotsFreshUntil(bio: VisitorBio, slots: Map<number, SlotWindow>, nowMs: number): number {
  let until = nowMs + SLOTS_REUSE_MS;
  for (const block of bio.blocks) {
    const first = slots.get(block.id)?.slots[0];
    if (first !== undefined) {
      const notice = Number(block.settings.min_notice_minutes) * 60_000;
      until = Math.min(until, first.startMs - notice);
    }
  }
  return Math.max(until, nowMs + 1000);
}
