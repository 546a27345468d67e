import { createHmac } from 'node:crypto';
import { BOT, HEAD_REQUEST, VISITOR } from './raw-visit';
import { UniqueVisitors } from './unique-visitors';
import { VisitBatch } from './visit-batch';
import { VisitEnricher, visitText } from './visit-enricher';
import type { VisitorInfo } from './visitor-info';

describe(visitText.name, () => {
  it('removes control characters, trims, and never splits a character', () => {
    expect(visitText('\u0000news\u0001 ', 128)).toBe('news');
    expect(visitText('\u0000\u007f', 128)).toBeNull();
    expect(visitText('', 128)).toBeNull();
    expect(visitText(undefined, 128)).toBeNull();
    expect(visitText(`${'a'.repeat(127)}\u{1F300}`, 128)).toBe('a'.repeat(127));
    expect(visitText(`${'a'.repeat(126)}\u{1F300}`, 128)).toBe(`${'a'.repeat(126)}\u{1F300}`);
    expect(visitText('x\ud800y\udc00', 128)).toBe('x\ufffdy\ufffd');
  });
});

describe(VisitEnricher.name, () => {
  const secret = Buffer.alloc(32, 7);
  const chrome = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36';
  const at = Date.UTC(2026, 10, 26, 23, 59, 59, 500);

  function enricher() {
    const looked: string[] = [];
    const info = {
      geoReady: () => true,
      loadGeo: () => Promise.resolve(),
      device: (ua: string) => {
        looked.push(`device ${ua}`);
        return { os_name: 'Linux', browser_name: ua ? 'Chrome' : null, device_type: 'desktop' };
      },
      geo: (ip: string) => {
        looked.push(`geo ${ip}`);
        return { continent_code: 'EU', country_code: 'DE', city_name: ip.slice(0, 3) };
      },
      language: (header: string) => {
        looked.push(`language ${header}`);
        return header.slice(0, 2);
      },
      botFamily: (ua: string) => {
        looked.push(`bot ${ua}`);
        return ua.split('/')[0];
      },
    } as unknown as VisitorInfo;
    return { looked, enricher: new VisitEnricher(info, secret, new UniqueVisitors(null)) };
  }

  /** The visitor hash as documented: HMAC-SHA-256 of day|link|address|user agent, 32 hex digits. */
  const hash = (text: string): string =>
    createHmac('sha256', secret).update(text).digest('hex').slice(0, 32);

  it('makes each row, looking each distinct text up once and hashing each visitor once a day', async () => {
    const { enricher: subject, looked } = enricher();
    const visitor = { ip: '203.0.113.9', userAgent: chrome, kind: 0, qrCodeId: 0 } as const;
    const news = 'https://news.example/a?b';
    const tags = 'utm_source=mail&utm_campaign=%20fall';
    const batch = VisitBatch.of([
      { ...visitor, linkId: 4, at, referer: news, acceptLanguage: 'de-DE', query: tags },
      { ...visitor, linkId: 4, at, referer: news, acceptLanguage: 'de-DE', query: null },
      {
        ...visitor,
        linkId: 5,
        at: at + 1000,
        referer: 'android-app://x',
        acceptLanguage: undefined,
        query: tags,
      },
      {
        ...visitor,
        linkId: 4,
        at: at + 1000,
        referer: undefined,
        acceptLanguage: 'de-DE',
        query: null,
      },
    ]);
    const rows = await subject.enrich(batch);
    const common = {
      continent_code: 'EU',
      country_code: 'DE',
      city_name: '203',
      os_name: 'Linux',
      browser_name: 'Chrome',
      device_type: 'desktop',
      bot: null,
      qr_code_id: null,
    };
    const today = hash(`2026-11-26|4|203.0.113.9|${chrome}`);
    expect(rows).toEqual([
      {
        link_id: 4,
        datetime: new Date(at),
        referrer_host: 'news.example',
        referrer_path: '/a',
        utm_source: 'mail',
        utm_medium: null,
        utm_campaign: 'fall',
        ...common,
        browser_language: 'de',
        is_unique: true,
        visitor_hash: today,
      },
      {
        link_id: 4,
        datetime: new Date(at),
        referrer_host: 'news.example',
        referrer_path: '/a',
        utm_source: null,
        utm_medium: null,
        utm_campaign: null,
        ...common,
        browser_language: 'de',
        is_unique: false,
        visitor_hash: today,
      },
      {
        link_id: 5,
        datetime: new Date(at + 1000),
        referrer_host: null,
        referrer_path: null,
        utm_source: 'mail',
        utm_medium: null,
        utm_campaign: 'fall',
        ...common,
        browser_language: null,
        is_unique: true,
        visitor_hash: hash(`2026-11-27|5|203.0.113.9|${chrome}`),
      },
      {
        link_id: 4,
        datetime: new Date(at + 1000),
        referrer_host: null,
        referrer_path: null,
        utm_source: null,
        utm_medium: null,
        utm_campaign: null,
        ...common,
        browser_language: 'de',
        is_unique: true,
        visitor_hash: hash(`2026-11-27|4|203.0.113.9|${chrome}`),
      },
    ]);
    expect(looked).toEqual([`device ${chrome}`, 'geo 203.0.113.9', 'language de-DE']);
  });

  it("keeps a bot's family and time only, and the QR code of a visitor's scan", async () => {
    const { enricher: subject, looked } = enricher();
    const none = { referer: undefined, acceptLanguage: undefined, query: null, qrCodeId: 0 };
    const rows = await subject.enrich(
      VisitBatch.of([
        { ...none, linkId: 4, at, ip: '', userAgent: 'curl/8.5.0', kind: BOT },
        { ...none, linkId: 4, at, ip: '', userAgent: 'curl/8.5.0', kind: BOT },
        { ...none, linkId: 4, at, ip: '', userAgent: chrome, kind: HEAD_REQUEST },
        {
          ...none,
          linkId: 4,
          at,
          ip: '203.0.113.9',
          userAgent: chrome,
          kind: VISITOR,
          qrCodeId: 9,
        },
      ]),
    );
    const bot = (family: string) => ({
      link_id: 4,
      datetime: new Date(at),
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
      bot: family,
      qr_code_id: null,
    });
    expect(rows).toEqual([
      bot('curl'),
      bot('curl'),
      bot('HEAD'),
      {
        ...bot('x'),
        continent_code: 'EU',
        country_code: 'DE',
        city_name: '203',
        os_name: 'Linux',
        browser_name: 'Chrome',
        device_type: 'desktop',
        is_unique: true,
        visitor_hash: hash(`2026-11-26|4|203.0.113.9|${chrome}`),
        bot: null,
        qr_code_id: 9,
      },
    ]);
    // The family is looked up once per user agent of the batch; a bot has no device or place.
    expect(looked).toEqual(['bot curl/8.5.0', `device ${chrome}`, 'geo 203.0.113.9']);
  });
});
