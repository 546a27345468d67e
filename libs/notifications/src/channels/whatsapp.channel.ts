import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { HandlerSettings, HandlerType } from '../handler-types';
import { ChannelResult, NotificationMessage } from '../notification-message';
import { HttpSender } from '../outbound/http-sender';
import { Channel, httpResult } from './channel';

/**
 * The Cloud API message for one notification. Events use the configured template (the API
 * refuses free-form text a business starts outside a 24-hour customer-service window), its body
 * parameters the title and the text; a test message, or no template configured, is plain text.
 */
export function whatsappMessage(
  to: string,
  message: NotificationMessage,
  template: { name: string; language: string } | null,
): Record<string, unknown> {
  const base = { messaging_product: 'whatsapp', to: to.replace(/^\+/, '') };
  if (template !== null && message.delivery !== undefined && message.event !== 'test') {
    return {
      ...base,
      type: 'template',
      template: {
        name: template.name,
        language: { code: template.language },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: message.title.slice(0, 1024) },
              { type: 'text', text: message.text.replace(/\s*\n\s*/g, ' ').slice(0, 1024) },
            ],
          },
        ],
      },
    };
  }
  return {
    ...base,
    type: 'text',
    text: { preview_url: false, body: `${message.title}\n${message.text}`.slice(0, 4096) },
  };
}

/** WhatsApp Cloud API: messages from the operator's business number. */
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
        body: JSON.stringify(whatsappMessage(settings[type], message, wa.template)),
      },
      'operator',
    );
    return httpResult(res.status, res.body);
  }
}
