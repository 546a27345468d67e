import { deliveryTargets, handlerSubscribes } from './deliveries.repository';

describe('deliveryTargets', () => {
  const handlers = [
    { id: 1, user_id: 7, events: null, team_id: null },
    { id: 2, user_id: 7, events: JSON.stringify(['link.created']), team_id: null },
    { id: 3, user_id: 7, events: JSON.stringify([]), team_id: null },
    { id: 4, user_id: 8, events: null, team_id: null },
  ];

  it('sends an event to the owner’s subscribed handlers and to the handlers it names', () => {
    const events = [
      { id: 10, event: 'link.created', owner_id: 7, handler_ids: null },
      { id: 11, event: 'data.created', owner_id: 7, handler_ids: JSON.stringify([3, 4]) },
    ];
    expect(deliveryTargets(events, handlers)).toEqual([
      { eventId: 10, handlerId: 1, event: 'link.created' },
      { eventId: 10, handlerId: 2, event: 'link.created' },
      { eventId: 11, handlerId: 1, event: 'data.created' },
      { eventId: 11, handlerId: 3, event: 'data.created' },
    ]);
  });

  it('never sends to another owner’s handler, even one an event names', () => {
    const events = [{ id: 12, event: 'data.created', owner_id: 8, handler_ids: '[1,2,3]' }];
    expect(deliveryTargets(events, handlers)).toEqual([
      { eventId: 12, handlerId: 4, event: 'data.created' },
    ]);
  });

  it('never sends an account event to a handler made through a team, whatever it subscribes to', () => {
    const teamHandlers = [
      { id: 1, user_id: 7, events: null, team_id: null },
      { id: 5, user_id: 7, events: null, team_id: 3 },
      {
        id: 6,
        user_id: 7,
        events: JSON.stringify(['payment.created', 'link.created']),
        team_id: 3,
      },
    ];
    const events = [
      { id: 20, event: 'payment.created', owner_id: 7, handler_ids: '[5,6]' },
      { id: 21, event: 'team_member.left', owner_id: 7, handler_ids: null },
      { id: 22, event: 'plan.changed', owner_id: 7, handler_ids: null },
      { id: 23, event: 'api_key.created', owner_id: 7, handler_ids: null },
      { id: 24, event: 'link.created', owner_id: 7, handler_ids: null },
      { id: 25, event: 'domain.verified', owner_id: 7, handler_ids: null },
    ];
    expect(deliveryTargets(events, teamHandlers)).toEqual([
      { eventId: 20, handlerId: 1, event: 'payment.created' },
      { eventId: 21, handlerId: 1, event: 'team_member.left' },
      { eventId: 22, handlerId: 1, event: 'plan.changed' },
      { eventId: 23, handlerId: 1, event: 'api_key.created' },
      { eventId: 24, handlerId: 1, event: 'link.created' },
      { eventId: 24, handlerId: 5, event: 'link.created' },
      { eventId: 24, handlerId: 6, event: 'link.created' },
      { eventId: 25, handlerId: 1, event: 'domain.verified' },
      { eventId: 25, handlerId: 5, event: 'domain.verified' },
    ]);
  });

  it('reads a missing or damaged subscription as all events', () => {
    expect(handlerSubscribes(null, 'link.deleted')).toBe(true);
    expect(handlerSubscribes('not json', 'link.deleted')).toBe(true);
    expect(handlerSubscribes('["link.created"]', 'link.deleted')).toBe(false);
  });
});
