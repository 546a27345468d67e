import { Inject, Injectable } from '@nestjs/common';
import { BOT, HEAD_REQUEST, VISITOR, VisitorInfo, VisitRecorder } from '@app/analytics';
import { buildTrustedProxies, clientIp, type TrustedProxies } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { VisitorLink } from './cache/visitor-link';
import type { Visit } from './visit';

/** Counts a visit: on the cached link (for its clicks limit) and, in memory, for the recorder. */
@Injectable()
export class VisitCounter {
  private readonly trusted: TrustedProxies | null;

  constructor(
    private readonly recorder: VisitRecorder,
    private readonly info: VisitorInfo,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.trusted = buildTrustedProxies(config.trustedProxies);
  }

  /**
   * Counts one visit. A bot's (isbot on the user agent, or none) and a HEAD request are recorded
   * apart: not on the link's clicks (nor its clicks limit), without address, referrer, language,
   * query or QR code; the writer gives them their family (bot-families.ts).
   */
  count(visit: Visit, link: VisitorLink): void {
    const req = visit.req;
    const userAgent = req.headers['user-agent'];
    const bot = this.info.isBot(userAgent);
    if (bot || visit.head) {
      this.recorder.record({
        linkId: link.id,
        at: Date.now(),
        ip: '',
        userAgent: userAgent ?? '',
        referer: undefined,
        acceptLanguage: undefined,
        query: null,
        kind: bot ? BOT : HEAD_REQUEST,
        qrCodeId: 0,
      });
      return;
    }
    link.clicksSinceLoad += 1;
    this.recorder.record({
      linkId: link.id,
      at: Date.now(),
      ip: visit.ip ?? clientIp(req, this.trusted),
      userAgent: userAgent ?? '',
      referer: req.headers.referer,
      acceptLanguage: req.headers['accept-language'],
      query: visit.query,
      kind: VISITOR,
      qrCodeId: visit.qrCodeId,
    });
  }
}
