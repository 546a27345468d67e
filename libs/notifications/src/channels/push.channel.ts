import { Inject, Injectable } from '@nestjs/common';
import { generateRequestDetails } from 'web-push';
import { APP_CONFIG, type AppConfig, SECRETS_KEY } from '@app/config';
import { PushSubscribersRepository } from '@app/database';
import { HandlerSettings, HandlerType } from '../handler-types';
import { ChannelResult, NotificationMessage } from '../notification-message';
import { HttpSender } from '../outbound/http-sender';
import { Channel, httpResult } from './channel';
import { deriveVapidKeys, VapidKeys } from './vapid';

/** How long a push service keeps a message for an offline browser. */
const TTL_SECONDS = 24 * 60 * 60;

/**
 * Web push to one of the owner's push subscribers (handler kind `push_subscriber_id`): the
 * message encrypted for the browser's keys (RFC 8291, aes128gcm) and signed with the
 * installation's VAPID key (RFC 8292) by the `web-push` package, then sent through the same
 * guarded HTTP client as webhooks. A push service answering 404 or 410 means the subscription is
 * gone for good: the subscriber is removed, and the result is `gone` (no retry), as it is for a
 * subscriber removed earlier.
 */
@Injectable()
export class PushChannel implements Channel {
  readonly types = ['push_subscriber_id'] as const;
  readonly keys: VapidKeys;

  constructor(
    private readonly http: HttpSender,
    private readonly subscribers: PushSubscribersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SECRETS_KEY) secretsKey: Buffer,
  ) {
    this.keys = config.notifications.vapidKeys ?? deriveVapidKeys(secretsKey);
  }

  unavailableReason(): string | null {
    return null;
  }

  async deliver(
    type: HandlerType,
    settings: HandlerSettings,
    message: NotificationMessage,
  ): Promise<ChannelResult> {
    const id = Number(settings[type]);
    const subscriber = await this.subscribers.findById(id);
    if (subscriber === null) {
      const error = `Push subscriber ${id} no longer exists; choose another one for this handler.`;
      return { ok: false, statusCode: null, error, gone: error };
    }
    const payload = JSON.stringify({
      title: message.title,
      body: message.text,
      event: message.event,
      event_id: message.delivery?.envelope.id ?? null,
      url: typeof message.data.url === 'string' ? message.data.url : null,
    });
    const details = generateRequestDetails(
      { endpoint: subscriber.endpoint, keys: { p256dh: subscriber.p256dh, auth: subscriber.auth } },
      payload,
      {
        TTL: TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        vapidDetails: {
          subject: this.config.notifications.vapidSubject ?? `mailto:${this.config.adminEmail}`,
          publicKey: this.keys.publicKey,
          privateKey: this.keys.privateKey,
        },
      },
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
    const res = await this.http.send(
      { method: 'POST', url: details.endpoint, headers, body: details.body },
      'user',
    );
    if (res.status === 404 || res.status === 410) {
      await this.subscribers.remove(subscriber.id);
      const error = `The push service answered ${res.status}: the browser unsubscribed, so push subscriber ${subscriber.id} was removed.`;
      return { ok: false, statusCode: res.status, error, gone: error };
    }
    if (res.status >= 200 && res.status < 300) {
      await this.subscribers.touch(subscriber.id, new Date());
    }
    return httpResult(res.status, res.body);
  }
}
