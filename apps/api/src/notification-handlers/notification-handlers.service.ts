import { Injectable } from '@nestjs/common';
import { Actor } from '@app/auth';
import { PlanLimits } from '@app/billing';
import { AppError, Clock, ListQuery, NotFoundError, Paginated, Problem } from '@app/common';
import {
  Db,
  isAccountEvent,
  NotificationHandlerEntity,
  NotificationHandlersRepository,
  PushSubscribersRepository,
} from '@app/database';
import {
  DeliveryOutcome,
  HandlerSettings,
  HandlerSettingsCodec,
  HandlerType,
  Notifier,
  testMessage,
  UNREADABLE,
} from '@app/notifications';
import { CreateNotificationHandlerDto } from './dto/create-notification-handler.dto';
import { UpdateNotificationHandlerDto } from './dto/update-notification-handler.dto';
import { buildHandlerSettings } from './handler-settings.validation';
import {
  CreatedNotificationHandlerResponse,
  NotificationHandlerResponse,
  toNotificationHandlerResponse,
} from './notification-handler.mapper';

@Injectable()
export class NotificationHandlersService {
  constructor(
    private readonly db: Db,
    private readonly limits: PlanLimits,
    private readonly handlers: NotificationHandlersRepository,
    private readonly codec: HandlerSettingsCodec,
    private readonly notifier: Notifier,
    private readonly clock: Clock,
    private readonly subscribers: PushSubscribersRepository,
  ) {}

  async list(actor: Actor, query: ListQuery): Promise<Paginated<NotificationHandlerResponse>> {
    return (await this.handlers.listOwned(actor.ownerId, query)).map((h) => this.toResponse(h));
  }

  async get(actor: Actor, id: number): Promise<NotificationHandlerResponse> {
    return this.toResponse(await this.findOwned(actor, id));
  }

  async create(
    actor: Actor,
    dto: CreateNotificationHandlerDto,
  ): Promise<CreatedNotificationHandlerResponse> {
    const built = buildHandlerSettings(dto.type, dto, {});
    await this.checkSubscriber(actor, dto.type, built);
    const teamId = actor.teamId ?? null;
    checkTeamEvents(teamId, dto.events, built.problems);
    if (built.problems.length > 0) {
      throw new AppError('validation_failed', built.problems);
    }
    const id = await this.db.write(async () => {
      await this.limits.check(actor.ownerId, { notification_handlers: 1 });
      return this.handlers.insert({
        user_id: actor.ownerId,
        name: dto.name,
        type: dto.type,
        settings_encrypted: this.codec.seal(built.settings),
        is_enabled: dto.is_enabled ?? true,
        events: dto.events === undefined ? null : JSON.stringify([...new Set(dto.events)]),
        team_id: teamId,
        disabled_reason: null,
        datetime: this.clock.now(),
        last_datetime: null,
      });
    });
    return built.generatedSecret ? { id, webhook_secret: built.generatedSecret } : { id };
  }

  async update(
    actor: Actor,
    id: number,
    dto: UpdateNotificationHandlerDto,
  ): Promise<{ id: number }> {
    const handler = await this.findOwned(actor, id);
    const type = dto.type ?? (handler.type as HandlerType);
    // A new kind starts from nothing: the old kind's secrets are not carried over.
    const current =
      type === handler.type ? (this.codec.tryOpen(handler.settings_encrypted) ?? {}) : {};
    const built = buildHandlerSettings(type, dto, current);
    await this.checkSubscriber(actor, type, built);
    // A member who sends the owner's handler somewhere else makes it the team's: otherwise the
    // `update` flag would route the account events to an address of the member's choosing.
    const retargeted =
      type !== handler.type || JSON.stringify(built.settings) !== JSON.stringify(current);
    const teamId = handler.team_id ?? (retargeted ? (actor.teamId ?? null) : null);
    checkTeamEvents(teamId, dto.events, built.problems);
    if (built.problems.length > 0) {
      throw new AppError('validation_failed', built.problems);
    }
    handler.name = dto.name ?? handler.name;
    handler.type = type;
    handler.settings_encrypted = this.codec.seal(built.settings);
    handler.is_enabled = dto.is_enabled ?? handler.is_enabled;
    handler.team_id = teamId;
    if (dto.events !== undefined) {
      handler.events = JSON.stringify([...new Set(dto.events)]);
    }
    // Turning a handler back on clears why the dispatcher turned it off.
    if (dto.is_enabled === true) {
      handler.disabled_reason = null;
    }
    handler.last_datetime = this.clock.now();
    await this.handlers.save(handler);
    return { id };
  }

  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    if (!(await this.handlers.deleteOwned(actor.ownerId, id))) {
      throw new NotFoundError('notification_handler_not_found', 'notification handler');
    }
    return { id };
  }

  /**
   * Sends one test message through the handler's channel, as an event named `test` (a webhook
   * gets it signed like every event). A delivery that fails at the target is still a 200 with ok
   * false; a kind this installation cannot deliver is a 400.
   */
  async test(actor: Actor, id: number): Promise<DeliveryOutcome> {
    const handler = await this.findOwned(actor, id);
    const type = handler.type as HandlerType;
    const reason = this.notifier.unavailableReason(type);
    if (reason !== null) {
      throw new AppError('channel_unavailable', reason, 'type');
    }
    const settings = this.codec.tryOpen(handler.settings_encrypted);
    if (settings === null) {
      throw new AppError('unprocessable', UNREADABLE);
    }
    // A test answers what happened; a 410 does not turn the handler off (only a real event does).
    const { ok, status_code, latency_ms, error } = await this.notifier.deliver(
      type,
      settings,
      testMessage(handler, actor.ownerId, this.clock.now()),
    );
    return { ok, status_code, latency_ms, error };
  }

  /** A push handler must name one of the owner's push subscribers. */
  private async checkSubscriber(
    actor: Actor,
    type: HandlerType,
    built: { settings: HandlerSettings; problems: Problem[] },
  ): Promise<void> {
    const id = built.settings.push_subscriber_id;
    if (type !== 'push_subscriber_id' || id === undefined) return;
    if (!(await this.subscribers.findOwned(actor.ownerId, Number(id)))) {
      built.problems.push({
        title: `push_subscriber_id ${id} is not one of your push subscribers.`,
        field: 'push_subscriber_id',
      });
    }
  }

  /** Unreadable secrets show as empty settings rather than failing the whole read or list. */
  private toResponse(handler: NotificationHandlerEntity): NotificationHandlerResponse {
    return toNotificationHandlerResponse(
      handler,
      this.codec.tryOpen(handler.settings_encrypted) ?? {},
    );
  }

  private async findOwned(actor: Actor, id: number): Promise<NotificationHandlerEntity> {
    const handler = await this.handlers.findOwned(actor.ownerId, id);
    if (!handler) {
      throw new NotFoundError('notification_handler_not_found', 'notification handler');
    }
    return handler;
  }
}

/**
 * A handler made through a team (`teamId` set) cannot subscribe to account events, whoever asks
 * (CONTRACT, third wave): one problem naming them, on the field `events`.
 */
function checkTeamEvents(
  teamId: number | null,
  events: readonly string[] | undefined,
  problems: Problem[],
): void {
  if (teamId === null || events === undefined) return;
  const refused = [...new Set(events.filter(isAccountEvent))];
  if (refused.length > 0) {
    problems.push({
      title: `A notification handler created through a team cannot receive account events: ${refused.join(', ')}.`,
      field: 'events',
    });
  }
}
