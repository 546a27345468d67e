import { isSignedFor, signSiteAccess, splitSiteAccess } from './site-access';

describe(signSiteAccess.name, () => {
  const secret = Buffer.alloc(32, 7);
  const link = { id: 42, passwordTag: 'tag-one' };
  const exp = 1_800_000_000;

  it('writes ~{expiry in base 36}.{22 base64url characters}, opening only its link and password', () => {
    const segment = signSiteAccess(secret, link, exp);
    expect(segment).toMatch(/^~[0-9a-z]+\.[A-Za-z0-9_-]{22}$/);
    const { token } = splitSiteAccess(`/${segment}/x.css`);
    expect(token?.exp).toBe(exp);
    expect(token && isSignedFor(secret, link, token)).toBe(true);
    expect(token && isSignedFor(secret, { id: 43, passwordTag: 'tag-one' }, token)).toBe(false);
    expect(token && isSignedFor(secret, { id: 42, passwordTag: 'tag-two' }, token)).toBe(false);
    expect(token && isSignedFor(secret, { id: 42, passwordTag: null }, token)).toBe(false);
    expect(token && isSignedFor(Buffer.alloc(32, 8), link, token)).toBe(false);
  });

  it('refuses a tampered MAC or expiry, including another spelling of the same expiry', () => {
    const segment = signSiteAccess(secret, link, exp);
    const [expText, mac] = segment.slice(1).split('.');
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    for (const forged of [
      `~${expText}.${flipped}`,
      `~${(exp + 1).toString(36)}.${mac}`,
      `~0${expText}.${mac}`,
    ]) {
      const { token } = splitSiteAccess(`/${forged}/`);
      expect([forged, token !== null && isSignedFor(secret, link, token)]).toEqual([forged, false]);
    }
  });
});

describe(splitSiteAccess.name, () => {
  const mac = 'A'.repeat(22);

  it('splits a leading token segment off the path', () => {
    expect(splitSiteAccess(`/~abc.${mac}/css/a.css`)).toEqual({
      segment: `~abc.${mac}`,
      token: { exp: parseInt('abc', 36), expText: 'abc', mac },
      rest: '/css/a.css',
    });
    expect(splitSiteAccess(`/~abc.${mac}/`).rest).toBe('/');
    expect(splitSiteAccess(`/~abc.${mac}`).rest).toBe('');
  });

  it.each([
    '/',
    '/index.html',
    `/css/~abc.${mac}/a.css`,
    `/~abc.${mac.slice(1)}/`,
    `/~abc.${mac}A/`,
    `/~ABC.${mac}/`,
    `/~.${mac}/`,
    `/abc.${mac}/`,
    `/~abc.${mac.slice(1)}%2f/`,
  ])('leaves %s alone', (rest) => {
    expect(splitSiteAccess(rest)).toEqual({ segment: null, token: null, rest });
  });
});
