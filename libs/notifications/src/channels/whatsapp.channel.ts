import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { HandlerSettings, HandlerType } from '../handler-types';
import { ChannelResult, NotificationMessage } from '../notification-message';
import { HttpSender } from '../outbound/http-sender';
import { Channel, httpResult } from './channel';

/** WhatsApp Cloud API: a text message from the operator's business number. */
@Injectable()
export class WhatsappChannel implements Channel {
  readonly types = ['whatsapp'] as const;

  constructor(
    private readonly http: HttpSender,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  unavailableReason(): string | null {
    return this.config.notifications.whatsapp === null
      ? 'Delivery for whatsapp needs WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID on the server.'
      : null;
  }

  async deliver(
    type: HandlerType,
    settings: HandlerSettings,
    message: NotificationMessage,
  ): Promise<ChannelResult> {
    const wa = this.config.notifications.whatsapp;
    if (wa === null) {
      return { ok: false, statusCode: null, error: this.unavailableReason() };
    }
    const res = await this.http.send(
      {
        method: 'POST',
        url: `${wa.apiUrl}/${encodeURIComponent(wa.phoneNumberId)}/messages`,
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${wa.token}` },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          to: settings[type].replace(/^\+/, ''),
          type: 'text',
          text: { preview_url: false, body: `${message.title}\n${message.text}`.slice(0, 4096) },
        }),
      },
      'operator',
    );
    return httpResult(res.status, res.body);
  }
}
