import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { HandlerSettings, HandlerType } from '../handler-types';
import { ChannelResult, NotificationMessage } from '../notification-message';
import { HttpSender } from '../outbound/http-sender';
import { Channel, httpResult } from './channel';

type ChatType = 'slack' | 'discord' | 'google_chat' | 'microsoft_teams';

/** Each vendor's incoming-webhook payload. */
export function chatPayload(type: ChatType, message: NotificationMessage): unknown {
  switch (type) {
    case 'slack':
      return { text: `*${message.title}*\n${message.text}` };
    case 'discord':
      return {
        embeds: [
          {
            title: message.title.slice(0, 256),
            description: message.text.slice(0, 4000),
            color: 0x2563eb,
          },
        ],
      };
    case 'google_chat':
      return { text: `*${message.title}*\n${message.text}` };
    case 'microsoft_teams':
      return { text: `**${message.title}**\n\n${message.text}` };
  }
}

/** Slack, Discord, Google Chat and Microsoft Teams incoming webhooks. */
@Injectable()
export class ChatWebhookChannel implements Channel {
  readonly types = ['slack', 'discord', 'google_chat', 'microsoft_teams'] as const;

  constructor(
    private readonly http: HttpSender,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  unavailableReason(): string | null {
    return null;
  }

  async deliver(
    type: HandlerType,
    settings: HandlerSettings,
    message: NotificationMessage,
  ): Promise<ChannelResult> {
    const chat = type as ChatType;
    const { url, target } = this.target(chat, settings[chat]);
    const res = await this.http.send(
      {
        method: 'POST',
        url,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(chatPayload(chat, message)),
      },
      target,
    );
    return httpResult(res.status, res.body);
  }

  /** NOTIFY_VENDOR_BASE_URL re-roots vendor webhooks (a relay, or a local mock in tests). */
  private target(type: ChatType, raw: string): { url: string; target: 'user' | 'operator' } {
    const base = this.config.notifications.vendorBaseUrl;
    if (base === null) {
      return { url: raw, target: 'user' };
    }
    const url = new URL(raw);
    return { url: `${base}/${type}${url.pathname}${url.search}`, target: 'operator' };
  }
}
