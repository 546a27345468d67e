import { Inject, Injectable, Logger } from '@nestjs/common';
import { NotificationHandlersRepository } from '@app/database';
import { Channel, CHANNELS } from './channels/channel';
import { HandlerSettings, HandlerType } from './handler-types';
import {
  ChannelResult,
  DeliveryAttempt,
  DeliveryOutcome,
  NotificationMessage,
} from './notification-message';
import { OutboundError } from './outbound/outbound-error';
import { HandlerSettingsCodec } from './secrets/handler-settings.codec';

export const UNREADABLE =
  'The secrets of this handler cannot be read with the current SECRETS_KEY; send its fields again.';

/**
 * The single entry point for notifications. Later features raise an event with
 * `notify(ownerId, message)`; every enabled handler of that owner gets it through its channel.
 */
@Injectable()
export class Notifier {
  private readonly logger = new Logger(Notifier.name);
  private readonly byType = new Map<HandlerType, Channel>();

  constructor(
    @Inject(CHANNELS) channels: Channel[],
    private readonly handlers: NotificationHandlersRepository,
    private readonly codec: HandlerSettingsCodec,
  ) {
    for (const channel of channels) {
      for (const type of channel.types) {
        this.byType.set(type, channel);
      }
    }
  }

  /** Why handlers of this kind cannot deliver here, or null when they can. */
  unavailableReason(type: HandlerType): string | null {
    const channel = this.byType.get(type);
    if (channel === undefined) {
      return `Delivery for ${type} is not available yet.`;
    }
    return channel.unavailableReason(type);
  }

  /** One delivery; never throws: a failure is an outcome with ok false and the reason. */
  async deliver(
    type: HandlerType,
    settings: HandlerSettings,
    message: NotificationMessage,
  ): Promise<DeliveryAttempt> {
    const started = performance.now();
    let result: ChannelResult;
    const reason = this.unavailableReason(type);
    const channel = this.byType.get(type);
    if (reason !== null || channel === undefined) {
      result = { ok: false, statusCode: null, error: reason };
    } else {
      try {
        result = await channel.deliver(type, settings, message);
      } catch (error) {
        if (!(error instanceof OutboundError)) {
          this.logger.error(error instanceof Error ? error.stack : String(error));
        }
        result = {
          ok: false,
          statusCode: null,
          error: error instanceof OutboundError ? error.message : 'Delivery failed unexpectedly.',
        };
      }
    }
    return {
      ok: result.ok,
      status_code: result.statusCode,
      latency_ms: Math.round(performance.now() - started),
      error: result.error,
      ...(result.gone === undefined ? {} : { gone: result.gone }),
    };
  }

  /**
   * For request handlers that must not wait for (or fail because of) delivery: the returned
   * promise never rejects, so it can be left unawaited; failures are logged.
   */
  async raise(ownerId: number, message: NotificationMessage): Promise<void> {
    try {
      await this.notify(ownerId, message);
    } catch (error) {
      this.logger.error(
        `Event ${message.event} for owner ${ownerId} was not delivered: ${error instanceof Error ? error.stack : String(error)}`,
      );
    }
  }

  /** Delivers an event to every enabled handler of the owner, one after another. */
  async notify(
    ownerId: number,
    message: NotificationMessage,
  ): Promise<Array<{ handler_id: number; outcome: DeliveryOutcome }>> {
    const results: Array<{ handler_id: number; outcome: DeliveryOutcome }> = [];
    for (const handler of await this.handlers.findEnabled(ownerId)) {
      const settings = this.codec.tryOpen(handler.settings_encrypted);
      const outcome: DeliveryOutcome =
        settings === null
          ? { ok: false, status_code: null, latency_ms: 0, error: UNREADABLE }
          : await this.deliver(handler.type as HandlerType, settings, message);
      if (!outcome.ok) {
        this.logger.warn(`Handler ${handler.id} (${handler.type}) failed: ${outcome.error}`);
      }
      results.push({ handler_id: handler.id, outcome });
    }
    return results;
  }
}
