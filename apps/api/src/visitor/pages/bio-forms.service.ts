import { Inject, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import {
  buildTrustedProxies,
  clientIp,
  Clock,
  isEmailAddress,
  type TrustedProxies,
} from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { type CollectorBlockType, DATA_KEYS, DataRepository } from '@app/database';
import { locationOf, type VisitorLink } from '../cache/visitor-link';
import { readForm, redirect } from '../http';
import type { Visit } from '../visit';
import type { Slot } from './appointment-slots';
import { COLLECTOR_FIELDS, type FormState, type VisitorBio, type VisitorBlock } from './bio-page';
import { BioPageResponder } from './bio-page-responder';
import { SlotCache } from './slot-cache.service';

/** Posts a visitor (by address) may send to one form a minute. */
export const FORM_POSTS_PER_MINUTE = 10;
const TAKEN = 'Someone has just booked that time. Please choose another.';
/** `?slots_from=`, and a slot's value: an instant in milliseconds. */
export const SLOTS_FROM = /^\d{1,15}$/;

/**
 * The collector forms of bio pages (`POST /{alias}/b/{id}`, without script): the token, the
 * honeypot, the per-address limit, the fields' rules, an appointment's slot, then the record and
 * its `data.created` event, answered with the page again (errors or thanks) or the thank-you URL.
 */
@Injectable()
export class BioForms {
  private readonly trusted: TrustedProxies | null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectThrottlerStorage() private readonly limits: ThrottlerStorage,
    private readonly data: DataRepository,
    private readonly slotCache: SlotCache,
    private readonly responder: BioPageResponder,
    private readonly clock: Clock,
  ) {
    this.trusted = buildTrustedProxies(config.trustedProxies);
  }

  async submit(
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
      const slots = await this.responder.slotsOf(bio, now.getTime(), focus);
      this.responder.send(
        visit,
        bio,
        status,
        this.responder.render(visit, link, bio, slots, state, focus?.blockId),
      );
    };

    if (!this.responder.validToken(link, block.id, form.get('token') ?? '', now.getTime())) {
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
        redirect(visit, 303, thankYouUrl, 'no-store');
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
}

function orderedData(type: string, record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    DATA_KEYS[type as CollectorBlockType].map((k) => [k, record[k] ?? null]),
  );
}
