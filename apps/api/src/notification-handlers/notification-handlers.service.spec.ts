import type { Actor } from '@app/auth';
import { Clock } from '@app/common';
import {
  NotificationHandlerEntity,
  type NotificationHandlersRepository,
  type PushSubscribersRepository,
} from '@app/database';
import type { HandlerSettings, HandlerSettingsCodec, Notifier } from '@app/notifications';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { inlineWrites, type PlanCheck } from '@app/testing/inline-writes';
import type { UpdateNotificationHandlerDto } from './dto/update-notification-handler.dto';
import { NotificationHandlersService } from './notification-handlers.service';

/** Settings "sealed" as plain JSON: the codec's encryption is not what is tested here. */
const plainCodec = {
  seal: (settings: HandlerSettings) => JSON.stringify(settings),
  tryOpen: (sealed: string) => JSON.parse(sealed) as HandlerSettings,
} as unknown as HandlerSettingsCodec;

class FakeHandlers {
  rows: NotificationHandlerEntity[] = [];

  insert(values: Omit<NotificationHandlerEntity, 'id'>): Promise<number> {
    const id = this.rows.length + 1;
    this.rows.push(Object.assign(new NotificationHandlerEntity(), values, { id }));
    return Promise.resolve(id);
  }

  findOwned(ownerId: number, id: number): Promise<NotificationHandlerEntity | null> {
    const row = this.rows.find((h) => h.id === id && h.user_id === ownerId);
    return Promise.resolve(row ? Object.assign(new NotificationHandlerEntity(), row) : null);
  }

  save(entity: NotificationHandlerEntity): Promise<NotificationHandlerEntity> {
    this.rows[this.rows.findIndex((h) => h.id === entity.id)] = entity;
    return Promise.resolve(entity);
  }
}

const OWNER: Actor = { userId: 1, ownerId: 1, apiKeyId: 1, isAdmin: false };
const MEMBER: Actor = { userId: 2, ownerId: 1, apiKeyId: 2, isAdmin: false, teamId: 5 };
/** A body as the validation pipe leaves it: the per-kind fields are declared at run time. */
const body = (fields: Record<string, unknown>) => fields as UpdateNotificationHandlerDto;
const HOOK = { name: 'Hook', type: 'webhook' as const, webhook: 'https://example.com/hook' };

describe(NotificationHandlersService.name, () => {
  let handlers: FakeHandlers;
  let service: NotificationHandlersService;
  let writes: ReturnType<typeof inlineWrites>;
  let checks: PlanCheck[];

  beforeEach(() => {
    handlers = new FakeHandlers();
    // Plans limit nothing here; the writes run at once.
    writes = inlineWrites();
    checks = writes.checks;
    service = new NotificationHandlersService(
      writes.db,
      writes.limits,
      handlers as unknown as NotificationHandlersRepository,
      plainCodec,
      {} as Notifier,
      new Clock(),
      {} as PushSubscribersRepository,
    );
  });

  it('records the team a handler is created through, and null for the owner', async () => {
    const theirs = await service.create(MEMBER, HOOK);
    const mine = await service.create(OWNER, HOOK);
    expect(handlers.rows.map((h) => [h.id, h.team_id])).toEqual([
      [theirs.id, 5],
      [mine.id, null],
    ]);
    // The team's handlers count against the owner's plan.
    expect(checks).toEqual([
      { ownerId: 1, needs: { notification_handlers: 1 } },
      { ownerId: 1, needs: { notification_handlers: 1 } },
    ]);
  });

  it('refuses account events for a handler made through a team, naming them once each', async () => {
    const events = ['link.created', 'payment.created', 'team_member.left', 'payment.created'];
    expect(await rejectionEntries(service.create(MEMBER, { ...HOOK, events }))).toEqual([
      {
        status: 400,
        code: 'validation_failed',
        field: 'events',
        title:
          'A notification handler created through a team cannot receive account events: payment.created, team_member.left.',
      },
    ]);
    const { id } = await service.create(MEMBER, { ...HOOK, events: ['link.created'] });
    expect(
      await rejectionEntries(service.update(OWNER, id, { events: ['payment.created'] })),
    ).toEqual([expect.objectContaining({ field: 'events', status: 400 })]);
    await service.create(OWNER, { ...HOOK, events: ['payment.created'] });
  });

  it("makes the owner's handler the team's when a member re-targets it, not when one renames it", async () => {
    const renamed = (await service.create(OWNER, HOOK)).id;
    const moved = (await service.create(OWNER, HOOK)).id;
    const retyped = (await service.create(OWNER, HOOK)).id;
    await service.update(MEMBER, renamed, body({ name: 'New name', webhook: HOOK.webhook }));
    await service.update(MEMBER, moved, body({ webhook: 'https://member.example/hook' }));
    await service.update(MEMBER, retyped, body({ type: 'email', email: 'member@example.com' }));
    await service.update(OWNER, moved, { name: 'Still the team’s' });
    // The owner's handler still goes where the owner said: its subscription may be any event.
    await service.update(MEMBER, renamed, { events: ['team_member.invited'] });
    expect(handlers.rows.map((h) => h.team_id)).toEqual([null, 5, 5]);
  });

  it('tests with a real delivery (msg_ id, evt_ envelope) and answers only the outcome, 410 included', async () => {
    const deliver = jest.fn().mockResolvedValue({
      ok: false,
      status_code: 410,
      latency_ms: 3,
      error: 'The target answered 410',
      gone: 'The target answered 410 Gone: it asks for no more deliveries.',
    });
    const tested = new NotificationHandlersService(
      writes.db,
      writes.limits,
      handlers as unknown as NotificationHandlersRepository,
      plainCodec,
      { deliver, unavailableReason: () => null } as unknown as Notifier,
      new Clock(),
      {} as PushSubscribersRepository,
    );
    const { id } = await tested.create(OWNER, HOOK);
    await expect(tested.test(OWNER, id)).resolves.toEqual({
      ok: false,
      status_code: 410,
      latency_ms: 3,
      error: 'The target answered 410',
    });
    expect(deliver).toHaveBeenCalledWith('webhook', expect.anything(), {
      event: 'test',
      title: 'Linkdock test notification',
      text: 'This is a test message for the notification handler "Hook".',
      data: { notification_handler_id: id, type: 'webhook' },
      delivery: {
        id: expect.stringMatching(/^msg_[A-Za-z0-9_-]{22}$/),
        envelope: {
          id: expect.stringMatching(/^evt_[A-Za-z0-9_-]{22}$/),
          event: 'test',
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
          owner_id: OWNER.ownerId,
          data: { notification_handler_id: id, type: 'webhook' },
        },
      },
    });
    // The handler stays as it was: only a real event's 410 turns it off.
    expect(handlers.rows[0].is_enabled).toBe(true);
  });
});
