import { DataSource } from 'typeorm';
import {
  DeliveriesRepository,
  DeliveryEntity,
  NotificationHandlerEntity,
  OutboxEventEntity,
} from '@app/database';
import { newTestService, TestService } from '@app/testing';
import { insertUser } from './rows';

/** The outbox's dispatcher side: fan-out into deliveries, and claims under a lease. */
describe(DeliveriesRepository.name, () => {
  let s: TestService<DeliveriesRepository>;
  let ds: DataSource;
  beforeAll(async () => {
    s = await newTestService(DeliveriesRepository);
    ds = s.dataSource;
  });
  afterAll(() => s?.close());

  const handler = (userId: number, values: Partial<NotificationHandlerEntity> = {}) => {
    const repo = ds.getRepository(NotificationHandlerEntity);
    return repo.save(
      repo.create({
        user_id: userId,
        name: 'hook',
        type: 'webhook',
        settings_encrypted: 'sealed',
        is_enabled: true,
        events: null,
        team_id: null,
        disabled_reason: null,
        datetime: new Date(),
        last_datetime: null,
        ...values,
      }),
    );
  };
  const event = (ownerId: number, name: string) => {
    const repo = ds.getRepository(OutboxEventEntity);
    return repo.save(
      repo.create({
        uid: `evt_${ownerId}_${name}`,
        event: name,
        owner_id: ownerId,
        data: '{}',
        handler_ids: null,
        created_at: new Date(),
        dispatched_at: null,
      }),
    );
  };
  const deliveries = () => ds.getRepository(DeliveryEntity).find({ order: { id: 'ASC' } });

  it("fans each event out once, to its owner's enabled handlers that subscribe to it", async () => {
    const owner = await insertUser(ds);
    const other = await insertUser(ds);
    const all = await handler(owner.id);
    const subscribed = await handler(owner.id, { events: JSON.stringify(['link.created']) });
    await handler(owner.id, { events: JSON.stringify(['link.deleted']) });
    await handler(owner.id, { is_enabled: false });
    await handler(other.id);
    const created = await event(owner.id, 'link.created');
    const now = new Date('2026-11-27T10:00:00.000Z');

    expect(await s.sut.fanOut(now, 10)).toBe(1);
    expect(await s.sut.fanOut(now, 10)).toBe(0);
    expect(
      (await deliveries()).map((d) => [d.event_id, d.handler_id, d.event, d.status, d.attempts]),
    ).toEqual([
      [created.id, all.id, 'link.created', 'pending', 0],
      [created.id, subscribed.id, 'link.created', 'pending', 0],
    ]);
    const [row] = await ds.getRepository(OutboxEventEntity).findBy({ id: created.id });
    expect(row.dispatched_at).toEqual(now);
  });

  it('claims due deliveries for a lease: none again while it lasts, the same after it, one attempt each', async () => {
    const now = new Date('2026-11-27T10:00:00.000Z');
    const due = await deliveries();
    expect(due).toHaveLength(2);
    const first = await s.sut.claimDue(now, 60_000, 1);
    expect(first).toEqual([
      {
        id: due[0].id,
        uid: due[0].uid,
        event_id: due[0].event_id,
        handler_id: due[0].handler_id,
        attempts: 1,
      },
    ]);
    const second = await s.sut.claimDue(new Date(now.getTime() + 1000), 60_000, 10);
    expect(second?.map((c) => [c.id, c.attempts])).toEqual([[due[1].id, 1]]);
    // Both leased now: nothing to claim until the first lease ends.
    expect(await s.sut.claimDue(new Date(now.getTime() + 59_000), 60_000, 10)).toEqual([]);
    const again = await s.sut.claimDue(new Date(now.getTime() + 60_000), 60_000, 10);
    expect(again?.map((c) => [c.id, c.attempts])).toEqual([[due[0].id, 2]]);
  });
});
