import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { OutboundRequest, OutboundResponse, safeRequest } from './safe-http';

/**
 * The one way channels talk HTTP. User-supplied targets go through the SSRF policy; endpoints the
 * operator configured (TELEGRAM_API_URL, TWILIO_API_URL, ...) are trusted like the rest of the config.
 */
@Injectable()
export class HttpSender {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  send(request: OutboundRequest, target: 'user' | 'operator'): Promise<OutboundResponse> {
    const n = this.config.notifications;
    return safeRequest(request, {
      allowPrivate: target === 'operator' || n.allowPrivateWebhooks,
      timeoutMs: n.timeoutMs,
    });
  }
}
