import type { EventEnvelope } from './events/envelope';

/** What an event says; every channel renders it in its own format. */
export interface NotificationMessage {
  /** Machine name, e.g. `test`, `data.collected`, `link.clicks_limit_reached`. */
  event: string;
  title: string;
  text: string;
  data: Record<string, string | number | boolean | null>;
  /**
   * For a delivery of a catalogue event: the event as receivers see it and the delivery's id
   * (the `webhook-id`, the same on every retry). Absent for a test message.
   */
  delivery?: { id: string; envelope: EventEnvelope };
}

/** The outcome of one delivery, as `POST /notification-handlers/{id}/test` reports it. */
export interface DeliveryOutcome {
  ok: boolean;
  /** HTTP status (or the SMTP reply code for email); null when no answer came. */
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

/**
 * One attempt as the dispatcher sees it: the outcome, and `gone` when the target will never take
 * a delivery again (a 410 Gone, a push subscription the browser dropped): the delivery then fails
 * at once and the handler is disabled with this reason, instead of retrying for days.
 */
export interface DeliveryAttempt extends DeliveryOutcome {
  gone?: string;
}

/** What a channel reports; the Notifier adds the latency. */
export interface ChannelResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** Why the target is gone for good (see DeliveryAttempt); absent when it may answer again. */
  gone?: string;
}
