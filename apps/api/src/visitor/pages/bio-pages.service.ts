import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import {
  buildTrustedProxies,
  clientIp,
  Clock,
  isEmailAddress,
  parseId,
  type TrustedProxies,
} from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  BiolinkBlocksRepository,
  type CollectorBlockType,
  DATA_KEYS,
  DataRepository,
} from '@app/database';
import { locationOf, type VisitorLink } from '../cache/visitor-link';
import { notFound, page, readForm, redirect, settle, TEMPORARY_CACHE } from '../http';
import type { Visit } from '../visit';
import { VISITOR_SECRET } from '../visitor-secret';
import { type Slot, type SlotWindow, slotsPerBlock } from './appointment-slots';
import {
  COLLECTOR_FIELDS,
  type FormState,
  renderBioPage,
  type VisitorBio,
  type VisitorBlock,
} from './bio-page';
import { SlotCache } from './slot-cache.service';
import { badSlotsFromPage, pageHeaders } from './visitor-pages';

/** How long a form token lasts, and how long a rendered page (with its tokens) is reused. */
export const FORM_TOKEN_SECONDS = 2 * 3600;
const RENDER_REUSE_MS = 15 * 60_000;
/** How long a page with appointments is reused at most (a booking here drops it at once). */
export const SLOTS_REUSE_MS = 30_000;
/** Posts a visitor (by address) may send to one form a minute. */
export const FORM_POSTS_PER_MINUTE = 10;
const TAKEN = 'Someone has just booked that time. Please choose another.';
const BLOCK_REST = /^\/b\/([^/]+)$/;
/** `?slots_from=`: an instant in milliseconds (what a slot's value and "Later times" carry). */
const SLOTS_FROM = /^\d{1,15}$/;

/** The block a `/{alias}/b/{id}` path names (the API's one rule for ids), or null for any other path. */
export function bioBlockId(rest: string): number | null {
  const match = BLOCK_REST.exec(rest);
  return match ? parseId(match[1]) : null;
}

/**
 * Bio pages (links of type biolink) for visitors: the page, its link blocks' counted redirects
 * (`/{alias}/b/{id}`), and its collector forms, which post to the same address without script.
 */
@Injectable()
export class BioPages {
  private readonly trusted: TrustedProxies | null;
  private readonly csp: string;

  constructor(
    @Inject(VISITOR_SECRET) private readonly secret: Buffer,
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectThrottlerStorage() private readonly limits: ThrottlerStorage,
    private readonly blocks: BiolinkBlocksRepository,
    private readonly data: DataRepository,
    private readonly slotCache: SlotCache,
    private readonly clock: Clock,
  ) {
    this.trusted = buildTrustedProxies(config.trustedProxies);
    const appOrigin = new URL(config.appUrl).origin;
    // Images come from APP_URL/uploads whatever host shows the page. Forms post to the page, which
    // may answer 303 to the block's thank-you URL: form-action follows the redirect chain.
    this.csp = `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' ${appOrigin}; form-action 'self' http: https:; base-uri 'none'; frame-ancestors 'none'`;
  }

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
        this.keep(bio, this.render(visit, link, bio, new Map(), null), now + RENDER_REUSE_MS);
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
      this.slotsOf(bio, now, null).then((slots) => {
        // Views that waited together for the slots: the first renders, the others reuse it.
        if (bio.rendered === null || bio.rendered.freshUntil <= now) {
          const html = this.render(visit, link, bio, slots, null);
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
      this.slotsOf(alone, this.clock.now().getTime(), focus).then((slots) =>
        this.send(visit, bio, 200, this.render(visit, link, alone, slots, null, focus.blockId)),
      ),
    );
  }

  /** Keeps a rendered page, encoded with its headers (what a view sends), until `freshUntil`. */
  private keep(bio: VisitorBio, html: string, freshUntil: number): void {
    const body = Buffer.from(html);
    const headers = Object.entries(this.headers(bio, 200, body.length));
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
        notFound(visit.res, visit.domain, visit.head);
        return;
      }
      const counted = visit.head ? Promise.resolve() : this.blocks.countClick(block.id);
      settle(
        visit.res,
        counted.then(() => redirect(visit.res, 302, location, TEMPORARY_CACHE)),
      );
      return;
    }
    if (block && block.type in COLLECTOR_FIELDS) {
      const later = new URLSearchParams(visit.query ?? '').has('slots_from');
      if (block.type === 'appointment_calendar' && later && method !== 'POST') {
        this.showLater(visit, link, bio, block);
      } else if (method === 'POST') {
        settle(visit.res, this.submit(visit, link, bio, block));
      } else {
        // The form's own address, opened directly: the page.
        redirect(visit.res, 303, `/${visit.alias}#b${block.id}`, TEMPORARY_CACHE);
      }
      return;
    }
    notFound(visit.res, visit.domain, visit.head);
  }

  private async submit(
    visit: Visit,
    link: VisitorLink,
    bio: VisitorBio,
    block: VisitorBlock,
  ): Promise<void> {
    const form = await readForm(visit.req);
    if (form === null) {
      visit.res.writeHead(413, {
        'Content-Type': 'text/plain; charset=utf-8',
        Connection: 'close',
      });
      visit.res.end('The form is too large.\n');
      return;
    }
    const now = this.clock.now();
    const values: Record<string, string> = {};
    for (const f of COLLECTOR_FIELDS[block.type]) {
      values[f.name] = (form.get(f.name) ?? '').trim();
    }
    values.slot = form.get('slot') ?? '';
    values.agreement = form.get('agreement') === '1' ? '1' : '';
    const state: FormState = { blockId: block.id, values, errors: {}, notice: null, thanks: null };
    // A chosen slot (on a later day, maybe): the page shows the slots from it on.
    const chosen = SLOTS_FROM.test(values.slot) ? Number(values.slot) : null;
    const focus = chosen === null ? null : { blockId: block.id, fromMs: chosen };
    const answer = async (status: number): Promise<void> => {
      const slots = await this.slotsOf(bio, now.getTime(), focus);
      this.send(visit, bio, status, this.render(visit, link, bio, slots, state, focus?.blockId));
    };

    if (!this.validToken(link, block.id, form.get('token') ?? '', now.getTime())) {
      state.notice = 'This form has expired. Please check your entries and send it again.';
      await answer(400);
      return;
    }
    const thanks =
      typeof block.settings.thank_you_message === 'string'
        ? block.settings.thank_you_message
        : 'Thank you!';
    const thankYouUrl = locationOf(
      typeof block.settings.thank_you_url === 'string' ? block.settings.thank_you_url : null,
    );
    const done = async (): Promise<void> => {
      if (thankYouUrl !== null) {
        redirect(visit.res, 303, thankYouUrl, 'no-store');
        return;
      }
      state.thanks = thanks;
      await answer(200);
    };
    if ((form.get('website') ?? '') !== '') {
      // The honeypot: a bot filled the hidden field. It sees success; nothing is stored.
      await done();
      return;
    }
    const ip = clientIp(visit.req, this.trusted);
    const hits = await this.limits.increment(
      `bio-form:${block.id}:${ip}`,
      60_000,
      FORM_POSTS_PER_MINUTE,
      60_000,
      'bio-form',
    );
    if (hits.isBlocked || hits.totalHits > FORM_POSTS_PER_MINUTE) {
      state.notice =
        'Too many messages were sent from your connection. Please try again in a minute.';
      await answer(429);
      return;
    }
    const record = this.check(block, values, state.errors);
    let slot: Slot | undefined;
    if (block.type === 'appointment_calendar') {
      slot =
        chosen === null
          ? undefined
          : ((await this.slotCache.free(block, now.getTime(), chosen)) ?? undefined);
      if (!slot && values.slot === '') {
        state.errors.slot = 'Choose a time.';
      } else if (!slot) {
        // Booked meanwhile (or gone past): the same answer as losing the race at the index.
        state.errors.slot = TAKEN;
        state.notice = 'That time was just taken.';
      }
    }
    if (Object.keys(state.errors).length > 0) {
      await answer(state.errors.slot === TAKEN ? 409 : 400);
      return;
    }
    if (slot) {
      const start = new Date(slot.startMs).toISOString();
      const end = new Date(slot.endMs).toISOString();
      Object.assign(record, {
        date: start.slice(0, 10),
        start_time: start.slice(11, 16),
        end_time: end.slice(11, 16),
        duration_value: block.settings.duration_value,
        duration_type: block.settings.duration_type,
      });
    }
    const handlerIds = Array.isArray(block.settings.notification_handlers_ids)
      ? (block.settings.notification_handlers_ids as number[])
      : [];
    const saved = await this.data.record(
      {
        user_id: bio.ownerId,
        biolink_block_id: block.id,
        link_id: link.id,
        project_id: bio.projectId,
        type: block.type,
        data: JSON.stringify(orderedData(block.type, record)),
        email: (record.email as string | null) ?? null,
        name: (record.name as string | null) ?? null,
        phone: (record.phone as string | null) ?? null,
        slot_start: slot ? new Date(slot.startMs) : null,
        datetime: now,
      },
      handlerIds,
      now,
    );
    if (slot) {
      // Booked here or by someone else meanwhile: either way the cached slots are stale.
      this.slotCache.invalidate(block.id);
      bio.rendered = null;
    }
    if (saved === null) {
      state.errors.slot = TAKEN;
      state.notice = 'That time was just taken.';
      await answer(409);
      return;
    }
    await done();
  }

  /** The record's fields from the form, or errors keyed by field. */
  private check(
    block: VisitorBlock,
    values: Record<string, string>,
    errors: Record<string, string>,
  ): Record<string, unknown> {
    const record: Record<string, unknown> = {};
    for (const f of COLLECTOR_FIELDS[block.type]) {
      const value = values[f.name];
      if (value.includes('\0')) {
        // Refused as the API refuses it (rejectNul); the form shows the field as typed, the NUL
        // as a replacement character, since HTML cannot carry it.
        errors[f.name] = `${f.label} must not contain a NUL character.`;
        values[f.name] = value.replace(/\0/g, '\uFFFD');
        continue;
      }
      if (value === '') {
        if (f.required) errors[f.name] = `Enter your ${f.label.toLowerCase()}.`;
        record[f.name] = null;
        continue;
      }
      if (f.kind === 'email') {
        if (!isEmailAddress(value)) {
          errors[f.name] = 'Enter an email address like name@example.com.';
        }
        record[f.name] = value;
      } else if (f.kind === 'tel') {
        const phone = parsePhoneNumberFromString(value);
        if (!phone || !phone.isValid()) {
          errors[f.name] = 'Enter a phone number with its country code, like +44 20 7946 0958.';
        } else {
          record[f.name] = phone.number;
        }
      } else {
        const max = f.kind === 'textarea' ? 2000 : 128;
        if (value.length > max) errors[f.name] = `${f.label} can be at most ${max} characters.`;
        record[f.name] = value;
      }
    }
    if (
      typeof block.settings.agreement_text === 'string' &&
      block.settings.agreement_text !== '' &&
      values.agreement !== '1'
    ) {
      errors.agreement = 'Tick the box to agree before sending.';
    }
    return record;
  }

  /**
   * The slots each appointment block shows: its first ones (cached), the focused block's from a
   * chosen time; as many as the page's slot budget leaves each block.
   */
  private async slotsOf(
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

  private render(
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

  private send(visit: Visit, bio: VisitorBio, status: number, html: string): void {
    const body = Buffer.from(html);
    visit.res.writeHead(status, this.headers(bio, status, body.length));
    visit.res.end(visit.head ? undefined : body);
  }

  /** The visitor pages' headers with this page's CSP; indexable unless `seo_noindex`. */
  private headers(
    bio: VisitorBio,
    status: number,
    length: number,
  ): Record<string, string | number> {
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

  private validToken(link: VisitorLink, blockId: number, token: string, nowMs: number): boolean {
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

function orderedData(type: string, record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    DATA_KEYS[type as CollectorBlockType].map((k) => [k, record[k] ?? null]),
  );
}
