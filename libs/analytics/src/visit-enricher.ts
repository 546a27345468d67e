import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DateTimeTexts } from '@app/database/db-values';
import type { NewVisit } from '@app/database/rollups/visit-columns';
import type { RawVisit } from './raw-visit';
import { UniqueVisitors } from './unique-visitors';
import { VisitorInfo } from './visitor-info';

/** Injection token of the key that keys visitor hashes. */
export const VISITOR_HASH_SECRET = Symbol('VISITOR_HASH_SECRET');

/** Turns what the visitor side keeps of a counted redirect into the row that is stored. */
@Injectable()
export class VisitEnricher {
  private readonly times = new DateTimeTexts();

  constructor(
    private readonly info: VisitorInfo,
    @Inject(VISITOR_HASH_SECRET) private readonly secret: Buffer,
    private readonly unique: UniqueVisitors,
  ) {}

  /**
   * The rows of a batch of counted visits: device, location, language, referrer, UTM tags, the
   * visitor hash, and whether the visitor is new today. Opens the geo database on first use.
   */
  async enrich(batch: RawVisit[]): Promise<NewVisit[]> {
    if (!this.info.geoReady()) {
      await this.info.loadGeo();
    }
    const rows: NewVisit[] = [];
    for (const v of batch) {
      const device = this.info.device(v.userAgent);
      const geo = this.info.geo(v.ip);
      const referrer = parseReferrer(v.referer);
      const utm = parseUtm(v.query);
      const at = new Date(v.at);
      const day = this.times.utcDay(v.at);
      rows.push({
        link_id: v.linkId,
        datetime: at,
        referrer_host: referrer.host,
        referrer_path: referrer.path,
        utm_source: utm.source,
        utm_medium: utm.medium,
        utm_campaign: utm.campaign,
        continent_code: geo.continent_code,
        country_code: geo.country_code,
        city_name: geo.city_name,
        os_name: device.os_name,
        browser_name: device.browser_name,
        device_type: device.device_type,
        browser_language: this.info.language(v.acceptLanguage),
        is_unique: false,
        visitor_hash: createHmac('sha256', this.secret)
          .update(`${day}|${v.linkId}|${v.ip}|${v.userAgent}`)
          .digest('hex')
          .slice(0, 32),
      });
    }
    await this.unique.mark(rows);
    return rows;
  }
}

function parseReferrer(referer: string | undefined): { host: string | null; path: string | null } {
  if (!referer) {
    return { host: null, path: null };
  }
  try {
    const url = new URL(referer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { host: null, path: null };
    }
    return { host: url.hostname.slice(0, 253), path: url.pathname.slice(0, 512) };
  } catch {
    return { host: null, path: null };
  }
}

/**
 * Text from a visitor's URL as stored: control characters removed, trimmed, at most `max` UTF-16
 * units without splitting a character in two, and no lone surrogate (PostgreSQL refuses NUL, and
 * stores a half character as U+FFFD, which would make two different values one).
 */
export function visitText(value: string | null | undefined, max: number): string | null {
  if (!value) {
    return null;
  }
  // eslint-disable-next-line no-control-regex
  let text = value.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (text.length > max) {
    text = text.slice(0, /[\ud800-\udbff]/.test(text[max - 1]) ? max - 1 : max);
  }
  text = text.replace(LONE_SURROGATE, '\ufffd');
  return text === '' ? null : text;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function parseUtm(query: string | null): {
  source: string | null;
  medium: string | null;
  campaign: string | null;
} {
  if (!query || !query.includes('utm_')) {
    return { source: null, medium: null, campaign: null };
  }
  const params = new URLSearchParams(query);
  const read = (name: string): string | null => visitText(params.get(name), 128);
  return { source: read('utm_source'), medium: read('utm_medium'), campaign: read('utm_campaign') };
}
