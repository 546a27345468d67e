import { Inject, Injectable } from '@nestjs/common';
import { VisitorInfo, VisitRecorder } from '@app/analytics';
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

  /** Counts one visit (not for HEAD and bots, which the callers and this check exclude). */
  count(visit: Visit, link: VisitorLink): void {
    const req = visit.req;
    const userAgent = req.headers['user-agent'];
    if (this.info.isBot(userAgent)) {
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
    });
  }
}
