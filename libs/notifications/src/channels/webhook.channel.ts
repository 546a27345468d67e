import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { HandlerSettings, HandlerType } from '../handler-types';
import { ChannelResult, NotificationMessage } from '../notification-message';
import { HttpSender } from '../outbound/http-sender';
import { Channel, httpResult } from './channel';

export const SIGNATURE_HEADER = 'X-Linkdock-Signature';
export const TIMESTAMP_HEADER = 'X-Linkdock-Timestamp';

/**
 * `sha256=<hex>` of HMAC-SHA256 over `<timestamp>.<body>`: the receiver recomputes it with the
 * handler's webhook_secret and rejects old timestamps, so a captured request cannot be replayed.
 */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The generic webhook: the event as signed JSON, to any http(s) URL. */
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
    const body = JSON.stringify({
      event: message.event,
      title: message.title,
      text: message.text,
      data: message.data,
      timestamp,
    });
    const res = await this.http.send(
      {
        method: 'POST',
        url: settings.webhook,
        headers: {
          'Content-Type': 'application/json',
          'X-Linkdock-Event': message.event,
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: webhookSignature(settings.webhook_secret, timestamp, body),
        },
        body,
      },
      'user',
    );
    return httpResult(res.status, res.body);
  }
}
