import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DateTimeTexts } from '@app/database/db-values';
import type { NewVisit } from '@app/database/rollups/visit-columns';
import { HEAD_BOT } from './bot-families';
import { HEAD_REQUEST, VISITOR } from './raw-visit';
import { UniqueVisitors } from './unique-visitors';
import { NO_TEXT, type VisitBatch } from './visit-batch';
import { type DeviceInfo, type GeoInfo, VisitorInfo } from './visitor-info';

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
   *
   * Each distinct text of the batch (user agent, address, referrer, language, query) is looked up
   * once, and each visitor's hash computed once: a batch lists its distinct strings (VisitBatch),
   * so the lookups go by their index.
   */
  async enrich(batch: VisitBatch): Promise<NewVisit[]> {
    if (!this.info.geoReady()) {
      await this.info.loadGeo();
    }
    const strings = batch.strings;
    const devices = new Array<DeviceInfo | undefined>(strings.length);
    const places = new Array<GeoInfo | undefined>(strings.length);
    const referrers = new Array<Referrer | undefined>(strings.length);
    const languages = new Array<string | null | undefined>(strings.length);
    const tags = new Array<UtmTags | undefined>(strings.length);
    const bots = new Array<string | undefined>(strings.length);
    const hashes = new Map<string, string>();
    const rows: NewVisit[] = [];
    for (let i = 0; i < batch.length; i += 1) {
      const linkId = batch.linkId(i);
      const at = batch.at(i);
      const ip = batch.ipRef(i);
      const ua = batch.userAgentRef(i);
      const refererRef = batch.refererRef(i);
      const languageRef = batch.languageRef(i);
      const queryRef = batch.queryRef(i);
      const kind = batch.kind(i);
      if (kind !== VISITOR) {
        // A bot's visit: its family, and nothing derived from address, language or referrer.
        const family =
          kind === HEAD_REQUEST ? HEAD_BOT : (bots[ua] ??= this.info.botFamily(strings[ua]));
        rows.push(botVisit(linkId, new Date(at), family));
        continue;
      }
      const qrCodeId = batch.qrCodeId(i);
      const device = (devices[ua] ??= this.info.device(strings[ua]));
      const geo = (places[ip] ??= this.info.geo(strings[ip]));
      const referrer =
        refererRef === NO_TEXT
          ? NO_REFERRER
          : (referrers[refererRef] ??= parseReferrer(strings[refererRef]));
      const utm = queryRef === NO_TEXT ? NO_UTM : (tags[queryRef] ??= parseUtm(strings[queryRef]));
      const language =
        languageRef === NO_TEXT
          ? null
          : languages[languageRef] !== undefined
            ? languages[languageRef]
            : (languages[languageRef] = this.info.language(strings[languageRef]));
      const day = this.times.utcDay(at);
      const visitor = `${day}|${linkId}|${ip}|${ua}`;
      let hash = hashes.get(visitor);
      if (hash === undefined) {
        hash = createHmac('sha256', this.secret)
          .update(`${day}|${linkId}|${strings[ip]}|${strings[ua]}`)
          .digest('hex')
          .slice(0, 32);
        hashes.set(visitor, hash);
      }
      rows.push({
        link_id: linkId,
        datetime: new Date(at),
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
        browser_language: language,
        is_unique: false,
        visitor_hash: hash,
        bot: null,
        qr_code_id: qrCodeId === 0 ? null : qrCodeId,
      });
    }
    await this.unique.mark(rows);
    return rows;
  }
}

/**
 * The row of a bot's visit: its link, time and family. No visitor hash (it is never a unique
 * visitor), no location (no address is kept), no device, language, referrer or UTM tags (the
 * breakdowns count visitors only), no QR code (a scan is a person's).
 */
function botVisit(linkId: number, datetime: Date, bot: string): NewVisit {
  return {
    link_id: linkId,
    datetime,
    referrer_host: null,
    referrer_path: null,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    continent_code: null,
    country_code: null,
    city_name: null,
    os_name: null,
    browser_name: null,
    device_type: null,
    browser_language: null,
    is_unique: false,
    visitor_hash: '',
    bot,
    qr_code_id: null,
  };
}

interface Referrer {
  host: string | null;
  path: string | null;
}
const NO_REFERRER: Referrer = { host: null, path: null };

interface UtmTags {
  source: string | null;
  medium: string | null;
  campaign: string | null;
}
const NO_UTM: UtmTags = { source: null, medium: null, campaign: null };

function parseReferrer(referer: string): Referrer {
  if (!referer) {
    return NO_REFERRER;
  }
  try {
    const url = new URL(referer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return NO_REFERRER;
    }
    return { host: url.hostname.slice(0, 253), path: url.pathname.slice(0, 512) };
  } catch {
    return NO_REFERRER;
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

function parseUtm(query: string): UtmTags {
  if (!query.includes('utm_')) {
    return NO_UTM;
  }
  const params = new URLSearchParams(query);
  const read = (name: string): string | null => visitText(params.get(name), 128);
  return { source: read('utm_source'), medium: read('utm_medium'), campaign: read('utm_campaign') };
}
