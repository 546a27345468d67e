import { Logger } from '@nestjs/common';
import { GeoInfo, VisitorInfo } from './visitor-info';

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const SAFARI_IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

const NO_GEO: GeoInfo = { continent_code: null, country_code: null, city_name: null };

describe(VisitorInfo.name, () => {
  describe('isBot', () => {
    const info = new VisitorInfo();

    it('treats a missing or empty user agent as a bot', () => {
      expect([info.isBot(undefined), info.isBot('')]).toEqual([true, true]);
    });

    it('recognises link-preview fetchers, crawlers and scripts', () => {
      expect(
        [
          'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
          'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
          'Twitterbot/1.0',
          'curl/8.5.0',
        ].map((ua) => info.isBot(ua)),
      ).toEqual([true, true, true, true]);
    });

    it('lets browsers through', () => {
      expect([CHROME_WINDOWS, SAFARI_IPHONE, CHROME_ANDROID].map((ua) => info.isBot(ua))).toEqual([
        false,
        false,
        false,
      ]);
    });

    it('answers the same from its cache', () => {
      expect([info.isBot('Twitterbot/1.0'), info.isBot(CHROME_WINDOWS)]).toEqual([true, false]);
    });
  });

  describe('device', () => {
    const info = new VisitorInfo();

    it('reads an iPhone as a mobile iOS device with Mobile Safari', () => {
      expect(info.device(SAFARI_IPHONE)).toEqual({
        os_name: 'iOS',
        browser_name: 'Mobile Safari',
        device_type: 'mobile',
      });
    });

    it('reads an iPad as a tablet', () => {
      expect(info.device(SAFARI_IPAD).device_type).toEqual('tablet');
    });

    it('reads Chrome on Windows as a desktop', () => {
      expect(info.device(CHROME_WINDOWS)).toEqual({
        os_name: 'Windows',
        browser_name: 'Chrome',
        device_type: 'desktop',
      });
    });

    it('reads Chrome on Android as a mobile', () => {
      expect(info.device(CHROME_ANDROID)).toEqual({
        os_name: 'Android',
        browser_name: 'Chrome',
        device_type: 'mobile',
      });
    });

    it('treats an unknown or missing user agent as a desktop with no names', () => {
      const unknown = { os_name: null, browser_name: null, device_type: 'desktop' };
      expect([info.device(undefined), info.device('')]).toEqual([unknown, unknown]);
    });
  });

  describe('language', () => {
    const info = new VisitorInfo();

    it('returns the primary language of the first entry', () => {
      expect([
        info.language('en-GB,en;q=0.9'),
        info.language('PT-br'),
        info.language('de'),
        info.language(' fr-CA ;q=0.8, en'),
        info.language('zh-Hant-TW'),
        info.language('fil'),
      ]).toEqual(['en', 'pt', 'de', 'fr', 'zh', 'fil']);
    });

    it('returns null for a wildcard, an empty or a missing header', () => {
      expect([info.language('*'), info.language(''), info.language(undefined)]).toEqual([
        null,
        null,
        null,
      ]);
    });

    it('returns null for a malformed first entry', () => {
      expect([info.language('english'), info.language('e'), info.language('1a')]).toEqual([
        null,
        null,
        null,
      ]);
    });
  });

  describe('geo', () => {
    const info = new VisitorInfo();

    beforeAll(() => {
      jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    });

    afterAll(() => {
      jest.restoreAllMocks();
    });

    it('returns all null before the database is loaded', () => {
      expect({ ready: info.geoReady(), geo: info.geo('8.8.8.8') }).toEqual({
        ready: false,
        geo: NO_GEO,
      });
    });

    it('loads the DB-IP database once', async () => {
      const first = info.loadGeo();
      const second = info.loadGeo();
      expect(second).toBe(first);
      await first;
      expect(info.geoReady()).toEqual(true);
    }, 30_000);

    it('locates a US IPv4 address', () => {
      const geo = info.geo('8.8.8.8');
      expect({ continent: geo.continent_code, country: geo.country_code }).toEqual({
        continent: 'NA',
        country: 'US',
      });
    });

    it('locates a London IPv4 address', () => {
      expect(info.geo('81.2.69.160')).toEqual({
        continent_code: 'EU',
        country_code: 'GB',
        city_name: 'London',
      });
    });

    // DB-IP places 2001:4860:4860::8888 (Google DNS) in Montreal; an AWS us-east-1 address is stable.
    it('locates a US IPv6 address', () => {
      const geo = info.geo('2600:1f18::1');
      expect({ continent: geo.continent_code, country: geo.country_code }).toEqual({
        continent: 'NA',
        country: 'US',
      });
    });

    it('returns all null for loopback and private addresses', () => {
      expect([info.geo('127.0.0.1'), info.geo('10.0.0.1'), info.geo('::1')]).toEqual([
        NO_GEO,
        NO_GEO,
        NO_GEO,
      ]);
    });

    it('returns all null for something that is not an address', () => {
      expect([info.geo('not-an-ip'), info.geo('')]).toEqual([NO_GEO, NO_GEO]);
    });
  });
});
