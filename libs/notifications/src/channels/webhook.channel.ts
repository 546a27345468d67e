import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { toFormFields } from '../events/form-fields';
import { HandlerSettings, HandlerType } from '../handler-types';
import { ChannelResult, NotificationMessage } from '../notification-message';
import { HttpSender } from '../outbound/http-sender';
import { Channel, httpResult } from './channel';
import { standardWebhookHeaders } from './standard-webhooks';

export const SIGNATURE_HEADER = 'X-Linkdock-Signature';
export const TIMESTAMP_HEADER = 'X-Linkdock-Timestamp';

/**
 * `sha256=<hex>` of HMAC-SHA256 over `<timestamp>.<body>`: the receiver recomputes it with the
 * handler's webhook_secret and rejects old timestamps, so a captured request cannot be replayed.
 */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * The generic webhook: an event as JSON `{id, event, created_at, data}` (or the origin's form keys
 * with `webhook_format=form`), signed by the Standard Webhooks scheme and by Linkdock's own
 * `X-Linkdock-Signature`, to any http(s) URL.
 */
@Injectable()
export class WebhookChannel implements Channel {
  readonly types = ['webhook'] as const;

  constructor(private readonly http: HttpSender) {}

  unavailableReason(): string | null {
    return null;
  }

  async deliver(
    _type: HandlerType,
    settings: HandlerSettings,
    message: NotificationMessage,
  ): Promise<ChannelResult> {
    const timestamp = Math.floor(Date.now() / 1000);
    const delivery = message.delivery;
    const form = settings.webhook_format === 'form';
    let body: string;
    if (delivery === undefined) {
      body = JSON.stringify({
        event: message.event,
        title: message.title,
        text: message.text,
        data: message.data,
        timestamp,
      });
    } else if (form) {
      body = new URLSearchParams(toFormFields(delivery.envelope)).toString();
    } else {
      const { id, event, created_at, data } = delivery.envelope;
      body = JSON.stringify({ id, event, created_at, data });
    }
    const headers: Record<string, string> = {
      'Content-Type': form && delivery ? 'application/x-www-form-urlencoded' : 'application/json',
      'X-Linkdock-Event': message.event,
      [TIMESTAMP_HEADER]: String(timestamp),
      [SIGNATURE_HEADER]: webhookSignature(settings.webhook_secret, timestamp, body),
    };
    if (delivery !== undefined) {
      Object.assign(
        headers,
        standardWebhookHeaders(settings.webhook_secret, delivery.id, timestamp, body),
      );
    }
    const res = await this.http.send(
      { method: 'POST', url: settings.webhook, headers, body },
      'user',
    );
    return httpResult(res.status, res.body);
  }
}
