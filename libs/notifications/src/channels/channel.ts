import { HandlerSettings, HandlerType } from '../handler-types';
import { ChannelResult, NotificationMessage } from '../notification-message';

/** One way of delivering: a webhook flavour, an API, SMTP. */
export interface Channel {
  readonly types: readonly HandlerType[];
  /** Why this channel cannot deliver on this installation (e.g. SMTP_URL unset), or null. */
  unavailableReason(type: HandlerType): string | null;
  deliver(
    type: HandlerType,
    settings: HandlerSettings,
    message: NotificationMessage,
  ): Promise<ChannelResult>;
}

export const CHANNELS = Symbol('NOTIFICATION_CHANNELS');

/**
 * An HTTP answer as a channel result: 2xx is success, anything else carries a short excerpt. A
 * 410 Gone says the receiver wants no more deliveries (the Standard Webhooks spec: "Sender should
 * disable the webhook endpoint, and stop sending it messages"), so it is `gone`.
 */
export function httpResult(status: number, body: string): ChannelResult {
  if (status >= 200 && status < 300) {
    return { ok: true, statusCode: status, error: null };
  }
  const excerpt = body.replace(/\s+/g, ' ').trim().slice(0, 200);
  const error = `The target answered ${status}${excerpt ? `: ${excerpt}` : ''}`;
  return status === 410
    ? {
        ok: false,
        statusCode: status,
        error,
        gone: `The target answered 410 Gone: it asks for no more deliveries.`,
      }
    : { ok: false, statusCode: status, error };
}
