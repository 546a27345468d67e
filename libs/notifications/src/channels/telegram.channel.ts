import { Inject, Injectable } from '@nestjs/common';
import { escapeHtml } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { HandlerSettings, HandlerType } from '../handler-types';
import { ChannelResult, NotificationMessage } from '../notification-message';
import { HttpSender } from '../outbound/http-sender';
import { Channel, httpResult } from './channel';

/** Telegram Bot API sendMessage, as HTML with every value escaped. */
@Injectable()
export class TelegramChannel implements Channel {
  readonly types = ['telegram'] as const;

  constructor(
    private readonly http: HttpSender,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  unavailableReason(): string | null {
    return null;
  }

  async deliver(
    _type: HandlerType,
    settings: HandlerSettings,
    message: NotificationMessage,
  ): Promise<ChannelResult> {
    const base = this.config.notifications.telegramApiUrl;
    const res = await this.http.send(
      {
        method: 'POST',
        url: `${base}/bot${settings.telegram}/sendMessage`,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          chat_id: settings.telegram_chat_id,
          text: `<b>${escapeHtml(message.title)}</b>\n${escapeHtml(message.text)}`,
          parse_mode: 'HTML',
          disable_web_page_preview: true,
        }),
      },
      'operator',
    );
    return httpResult(res.status, res.body);
  }
}
