import { Inject, Injectable } from '@nestjs/common';
import nodemailer from 'nodemailer';
import { escapeHtml } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { HandlerSettings, HandlerType } from '../handler-types';
import { ChannelResult, NotificationMessage } from '../notification-message';
import { Channel } from './channel';

/** SMTP through nodemailer, configured by SMTP_URL. */
@Injectable()
export class EmailChannel implements Channel {
  readonly types = ['email'] as const;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  unavailableReason(): string | null {
    return this.config.notifications.smtpUrl === null
      ? 'Delivery for email needs SMTP_URL to be configured on the server.'
      : null;
  }

  async deliver(
    _type: HandlerType,
    settings: HandlerSettings,
    message: NotificationMessage,
  ): Promise<ChannelResult> {
    const n = this.config.notifications;
    // nodemailer reads transport options from the URL's query; the timeouts bound every step.
    const url = new URL(n.smtpUrl ?? '');
    for (const option of ['connectionTimeout', 'greetingTimeout', 'socketTimeout']) {
      if (!url.searchParams.has(option)) {
        url.searchParams.set(option, String(n.timeoutMs));
      }
    }
    const transport = nodemailer.createTransport(url.href);
    try {
      const info = (await transport.sendMail({
        from: n.smtpFrom,
        to: settings.email,
        subject: message.title,
        text: message.text,
        html: `<p><strong>${escapeHtml(message.title)}</strong></p><p>${escapeHtml(message.text)}</p>`,
      })) as { response?: string };
      const code = /^(\d{3})/.exec(info.response ?? '');
      return { ok: true, statusCode: code ? Number(code[1]) : null, error: null };
    } catch (error) {
      const smtp = error as { responseCode?: number; message?: string };
      return {
        ok: false,
        statusCode: smtp.responseCode ?? null,
        error: `SMTP delivery failed: ${smtp.message ?? String(error)}`,
      };
    } finally {
      transport.close();
    }
  }
}
