import { isAccountEvent } from '@app/database';

/**
 * Every event Linkdock raises (docs/events.md has each payload). A notification handler
 * subscribes to some of them (`events`, default all); a bio-page block's chosen handlers get its
 * `data.created` whatever their subscription.
 */
export const EVENT_NAMES = [
  'data.created',
  'payment.created',
  'link.created',
  'link.updated',
  'link.deleted',
  'link.clicks_limit_reached',
  'link.expired',
  'link.destination_broken',
  'link.destination_recovered',
  'domain.verified',
  'domain.disabled',
  'team_member.invited',
  'team_member.accepted',
  'team_member.left',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export function isEventName(value: string): value is EventName {
  return (EVENT_NAMES as readonly string[]).includes(value);
}

/**
 * The events a handler made through a team (`X-Team-Id`) may receive: the catalogue without the
 * account events (payment.*, team_member.*; isAccountEvent). Its default subscription is this list.
 */
export const TEAM_EVENT_NAMES: readonly EventName[] = EVENT_NAMES.filter((e) => !isAccountEvent(e));
