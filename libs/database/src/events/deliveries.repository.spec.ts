import { deliveryTargets, handlerSubscribes } from './deliveries.repository';

describe('deliveryTargets', () => {
  const handlers = [
    { id: 1, user_id: 7, events: null },
    { id: 2, user_id: 7, events: JSON.stringify(['link.created']) },
    { id: 3, user_id: 7, events: JSON.stringify([]) },
    { id: 4, user_id: 8, events: null },
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

  it('reads a missing or damaged subscription as all events', () => {
    expect(handlerSubscribes(null, 'link.deleted')).toBe(true);
    expect(handlerSubscribes('not json', 'link.deleted')).toBe(true);
    expect(handlerSubscribes('["link.created"]', 'link.deleted')).toBe(false);
  });
});
