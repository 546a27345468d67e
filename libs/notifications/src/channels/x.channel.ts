import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { HandlerSettings, HandlerType } from '../handler-types';
import { ChannelResult, NotificationMessage } from '../notification-message';
import { HttpSender } from '../outbound/http-sender';
import { Channel, httpResult } from './channel';
import { oauth1Header } from './oauth1';

/** A post on X (API v2 `POST /2/tweets`), signed with the user's OAuth 1.0a keys. */
@Injectable()
export class XChannel implements Channel {
  readonly types = ['x'] as const;

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
    const url = `${this.config.notifications.xApiUrl}/2/tweets`;
    const text = `${message.title}: ${message.text}`;
    const res = await this.http.send(
      {
        method: 'POST',
        url,
        headers: {
          'Content-Type': 'application/json',
          Authorization: oauth1Header('POST', url, {
            consumerKey: settings.x_consumer_key,
            consumerSecret: settings.x_consumer_secret,
            token: settings.x_access_token,
            tokenSecret: settings.x_access_token_secret,
          }),
        },
        body: JSON.stringify({ text: text.length > 280 ? `${text.slice(0, 279)}…` : text }),
      },
      'operator',
    );
    return httpResult(res.status, res.body);
  }
}
