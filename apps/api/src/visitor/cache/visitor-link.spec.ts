import { defaultLinkSettings, LinkEntity, LinkSettings } from '@app/database';
import { compileLink, VisitorLink, withUtm } from './visitor-link';

const NO_UTM = { source: null, medium: null, campaign: null };
const HASH = 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g';

function link(
  overrides: Partial<LinkEntity> = {},
  settings: Partial<LinkSettings> = {},
): LinkEntity {
  return {
    id: 42,
    user_id: 7,
    project_id: null,
    domain_id: 0,
    splash_page_id: null,
    type: 'link',
    url: 'promo',
    location_url: 'https://example.com/landing',
    settings: JSON.stringify({ ...defaultLinkSettings(), ...settings }),
    password_hash: null,
    clicks: 12,
    bot_clicks: 0,
    is_enabled: true,
    start_date: null,
    end_date: null,
    datetime: new Date('2024-01-01T00:00:00Z'),
    last_datetime: null,
    ...overrides,
  };
}

describe(withUtm.name, () => {
  it('keeps the other parameters byte for byte, so signed destination URLs stay valid', () => {
    expect(
      withUtm('https://bucket.example.com/f.pdf?X-Sig=a%2Fb~c%20d&flag#top', {
        source: 'qr',
        medium: null,
        campaign: null,
      }),
    ).toBe('https://bucket.example.com/f.pdf?X-Sig=a%2Fb~c%20d&flag&utm_source=qr#top');
  });

  it('returns the destination untouched when every UTM value is null', () => {
    const destination = 'https://example.com/a?b=1&utm_source=own#frag';
    expect(withUtm(destination, NO_UTM)).toEqual(destination);
  });

  it('adds UTM values after the existing parameters and keeps the fragment', () => {
    expect(
      withUtm('https://example.com/page?ref=home&x=1#section-2', {
        source: 'newsletter',
        medium: 'email',
        campaign: 'spring sale',
      }),
    ).toEqual(
      'https://example.com/page?ref=home&x=1&utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale#section-2',
    );
  });

  it('overrides UTM values already in the destination, in place', () => {
    expect(
      withUtm('https://example.com/?utm_source=old&utm_medium=keep&a=1', {
        source: 'new',
        medium: null,
        campaign: 'c',
      }),
    ).toEqual('https://example.com/?utm_source=new&utm_medium=keep&a=1&utm_campaign=c');
  });

  it('sets only the values that are given', () => {
    expect(
      withUtm('https://example.com', { source: null, medium: 'social', campaign: null }),
    ).toEqual('https://example.com?utm_medium=social');
  });
});

describe(compileLink.name, () => {
  it('compiles a link with default settings', () => {
    expect(compileLink(link())).toEqual<VisitorLink>({
      id: 42,
      domainId: 0,
      alias: 'promo',
      enabled: true,
      startMs: null,
      endMs: null,
      statusCode: 302,
      location: 'https://example.com/landing',
      forwardQuery: false,
      clicksLimit: null,
      clicksAtLoad: 12,
      clicksSinceLoad: 0,
      expirationUrl: null,
      passwordHash: null,
      passwordTag: null,
      sensitive: false,
      targetingType: null,
      targeting: [],
      rotationTotal: 0,
      splash: null,
      site: null,
      bio: null,
      preview: null,
    });
  });

  it('compiles a link with changed settings, UTM applied to the location and every rule', () => {
    const start = new Date('2025-03-01T10:00:00.000Z');
    const end = new Date('2025-04-01T10:00:00.500Z');
    const compiled = compileLink(
      link(
        {
          id: 9,
          domain_id: 3,
          url: 'Spring',
          location_url: 'https://shop.example.com/?ref=x#top',
          is_enabled: false,
          start_date: start,
          end_date: end,
          clicks: 99,
        },
        {
          http_status_code: 301,
          sensitive_content: true,
          schedule: true,
          clicks_limit: 500,
          expiration_url: 'https://example.com/over',
          forward_query_parameters_is_enabled: true,
          utm: { source: 'src', medium: null, campaign: 'camp' },
          targeting_type: 'country_code',
          targeting: [
            { key: 'US', value: 'https://us.example.com/' },
            { key: 'GB', value: 'https://gb.example.com/p?utm_source=old#f' },
          ],
        },
      ),
    );
    expect(compiled).toEqual<VisitorLink>({
      id: 9,
      domainId: 3,
      alias: 'Spring',
      enabled: false,
      startMs: 1740823200000,
      endMs: 1743501600500,
      statusCode: 301,
      location: 'https://shop.example.com/?ref=x&utm_source=src&utm_campaign=camp#top',
      forwardQuery: true,
      clicksLimit: 500,
      clicksAtLoad: 99,
      clicksSinceLoad: 0,
      expirationUrl: 'https://example.com/over',
      passwordHash: null,
      passwordTag: null,
      sensitive: true,
      targetingType: 'country_code',
      targeting: [
        { key: 'US', value: 'https://us.example.com/?utm_source=src&utm_campaign=camp' },
        { key: 'GB', value: 'https://gb.example.com/p?utm_source=src&utm_campaign=camp#f' },
      ],
      rotationTotal: 0,
      splash: null,
      site: null,
      bio: null,
      preview: null,
    });
    expect([compiled.startMs, compiled.endMs]).toEqual([start.getTime(), end.getTime()]);
  });

  it('keeps a null location (a static site) null', () => {
    const compiled = compileLink(
      link({ location_url: null }, { utm: { source: 's', medium: 'm', campaign: 'c' } }),
    );
    expect(compiled.location).toBeNull();
  });

  it('sums rotation weights', () => {
    const compiled = compileLink(
      link(
        {},
        {
          targeting_type: 'rotation',
          targeting: [
            { key: '1', value: 'https://a.example.com/' },
            { key: '250', value: 'https://b.example.com/' },
            { key: '1000', value: 'https://c.example.com/' },
          ],
        },
      ),
    );
    expect({ type: compiled.targetingType, total: compiled.rotationTotal }).toEqual({
      type: 'rotation',
      total: 1251,
    });
  });

  it('leaves rotationTotal at 0 for other targeting types', () => {
    const compiled = compileLink(
      link(
        {},
        {
          targeting_type: 'device_type',
          targeting: [{ key: 'mobile', value: 'https://m.example.com/' }],
        },
      ),
    );
    expect(compiled.rotationTotal).toEqual(0);
  });

  it('fills settings that an older row lacks', () => {
    const compiled = compileLink(
      link({ settings: JSON.stringify({ http_status_code: 307, utm: { source: 'x' } }) }),
    );
    expect({
      statusCode: compiled.statusCode,
      location: compiled.location,
      targeting: compiled.targeting,
      targetingType: compiled.targetingType,
      forwardQuery: compiled.forwardQuery,
    }).toEqual({
      statusCode: 307,
      location: 'https://example.com/landing?utm_source=x',
      targeting: [],
      targetingType: null,
      forwardQuery: false,
    });
  });

  it('derives a stable 16-character base64url password tag from the hash', () => {
    const first = compileLink(link({ password_hash: HASH }));
    const second = compileLink(link({ password_hash: HASH, url: 'other', id: 1 }));
    expect(first.passwordHash).toEqual(HASH);
    expect(first.passwordTag).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(second.passwordTag).toEqual(first.passwordTag);
  });

  it('changes the password tag when the hash changes', () => {
    const first = compileLink(link({ password_hash: HASH }));
    const changed = compileLink(link({ password_hash: `${HASH.slice(0, -1)}h` }));
    expect(changed.passwordTag).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(changed.passwordTag).not.toEqual(first.passwordTag);
  });
});
