import { EVENT_NAMES } from './catalogue';
import type { EventEnvelope } from './envelope';
import { toNotificationMessage } from './event-message';
import { toFormFields } from './form-fields';

const APP = 'https://links.example.com';

function envelope(event: string, data: Record<string, unknown>): EventEnvelope {
  return { id: 'evt_1', event, created_at: '2026-11-24 10:00:00', owner_id: 7, data };
}

describe('toNotificationMessage', () => {
  const link = {
    id: 4,
    url: 'sale',
    full_url: `${APP}/sale`,
    location_url: 'https://shop.example.com/',
    settings: { clicks_limit: 100 },
    end_date: '2026-12-01 00:00:00',
  };

  it.each([
    [
      'link.created',
      link,
      'Link created',
      `${APP}/sale was created, pointing to https://shop.example.com/. ${APP}/sale`,
    ],
    ['link.updated', link, 'Link updated', `${APP}/sale was updated. ${APP}/sale`],
    ['link.deleted', link, 'Link deleted', `${APP}/sale was deleted. ${APP}/sale`],
    [
      'link.clicks_limit_reached',
      link,
      'Click limit reached',
      `${APP}/sale reached its limit of 100 clicks; visitors now see the expiration page. ${APP}/sale`,
    ],
    [
      'link.expired',
      link,
      'Link expired',
      `${APP}/sale passed the end of its schedule (2026-12-01 00:00:00 UTC). ${APP}/sale`,
    ],
    [
      'data.created',
      {
        id: 9,
        link_id: 4,
        type: 'email_collector',
        data: { email: 'ana@example.com', name: 'Ana' },
      },
      'New submission',
      `New email collector record from Ana on bio page 4 (record 9). ${APP}/v1/data/9`,
    ],
    [
      'payment.created',
      {
        id: 2,
        frequency: 'monthly',
        total_amount: '9.99',
        currency: 'EUR',
        email: 'b@example.com',
        processor: 'stripe',
      },
      'Payment received',
      `A monthly payment of 9.99 EUR by b@example.com through stripe was recorded. ${APP}/v1/payments/2`,
    ],
    [
      'domain.verified',
      { id: 3, host: 'go.example.com' },
      'Domain verified',
      `go.example.com is verified and now serves your links. ${APP}/v1/domains/3`,
    ],
    [
      'domain.disabled',
      { id: 3, host: 'go.example.com', reason: 'the record is gone' },
      'Domain disabled',
      `go.example.com was disabled: the record is gone. ${APP}/v1/domains/3`,
    ],
    [
      'team_member.invited',
      { id: 5, team_id: 2, team_name: 'Ops', user_email: 'c@example.com' },
      'Team invitation sent',
      `c@example.com was invited to team Ops. ${APP}/v1/teams/2/members`,
    ],
    [
      'team_member.accepted',
      { id: 5, team_id: 2, team_name: 'Ops', user_email: 'c@example.com' },
      'Team invitation accepted',
      `c@example.com joined team Ops. ${APP}/v1/teams/2/members`,
    ],
    [
      'team_member.left',
      { id: 5, team_id: 2, team_name: 'Ops', user_email: 'c@example.com' },
      'Team member left',
      `c@example.com is no longer in team Ops. ${APP}/v1/teams/2/members`,
    ],
  ])('%s', (event, data, title, text) => {
    const message = toNotificationMessage(envelope(event, data), APP);
    expect(message.title).toBe(title);
    expect(message.text).toBe(text);
    expect(message.event).toBe(event);
    expect(message.data.event_id).toBe('evt_1');
    // Only flat values: every channel can show them.
    for (const value of Object.values(message.data)) {
      expect(['string', 'number', 'boolean'].includes(typeof value) || value === null).toBe(true);
    }
  });

  it('has a sentence for every event of the catalogue', () => {
    for (const event of EVENT_NAMES) {
      expect(toNotificationMessage(envelope(event, {}), APP).title).not.toBe(event);
    }
  });
});

describe('toFormFields', () => {
  it('puts a record’s own keys beside the event’s scalars, as the origin posts them', () => {
    const fields = toFormFields(
      envelope('data.created', {
        id: 9,
        link_id: 4,
        biolink_block_id: 6,
        project_id: null,
        type: 'contact_collector',
        data: { name: 'Ana', email: 'ana@example.com', phone: '+33612345678', message: 'Hi' },
      }),
    );
    expect(fields).toEqual({
      id: '9',
      link_id: '4',
      biolink_block_id: '6',
      type: 'contact_collector',
      name: 'Ana',
      email: 'ana@example.com',
      phone: '+33612345678',
      message: 'Hi',
      event: 'data.created',
      event_id: 'evt_1',
      created_at: '2026-11-24 10:00:00',
    });
  });
});
