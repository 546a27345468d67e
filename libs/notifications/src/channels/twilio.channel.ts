import { Inject, Injectable } from '@nestjs/common';
import { escapeHtml } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { HandlerSettings, HandlerType } from '../handler-types';
import { ChannelResult, NotificationMessage } from '../notification-message';
import { HttpSender } from '../outbound/http-sender';
import { Channel, httpResult } from './channel';

/** Twilio Messages (SMS) and Calls (a spoken message via inline TwiML), with basic auth. */
@Injectable()
export class TwilioChannel implements Channel {
  readonly types = ['twilio', 'twilio_call'] as const;

  constructor(
    private readonly http: HttpSender,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  unavailableReason(type: HandlerType): string | null {
    return this.config.notifications.twilio === null
      ? `Delivery for ${type} needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM on the server.`
      : null;
  }

  async deliver(
    type: HandlerType,
    settings: HandlerSettings,
    message: NotificationMessage,
  ): Promise<ChannelResult> {
    const twilio = this.config.notifications.twilio;
    if (twilio === null) {
      return { ok: false, statusCode: null, error: this.unavailableReason(type) };
    }
    const text = `${message.title}: ${message.text}`;
    const form: Record<string, string> =
      type === 'twilio'
        ? { To: settings.twilio, From: twilio.from, Body: text.slice(0, 1600) }
        : {
            To: settings.twilio_call,
            From: twilio.from,
            Twiml: `<Response><Say>${escapeHtml(text.slice(0, 1000))}</Say></Response>`,
          };
    const resource = type === 'twilio' ? 'Messages' : 'Calls';
    const sid = encodeURIComponent(twilio.accountSid);
    const auth = Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64');
    const res = await this.http.send(
      {
        method: 'POST',
        url: `${twilio.apiUrl}/2010-04-01/Accounts/${sid}/${resource}.json`,
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: `Basic ${auth}`,
        },
        body: new URLSearchParams(form).toString(),
      },
      'operator',
    );
    return httpResult(res.status, res.body);
  }
}
