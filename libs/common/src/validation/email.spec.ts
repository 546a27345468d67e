import { isEmailAddress } from './email';
import { readHttpUrl } from './http-url';

describe(isEmailAddress.name, () => {
  it.each([
    'ada@example.com',
    'admin@linkdock.local',
    'a@b.co',
    'first.last+tag@sub.example.co.uk',
    'josé@example.com',
    'x@xn--bcher-kva.example',
    'x@example.xn--p1ai',
  ])('accepts %s', (good) => {
    expect(isEmailAddress(good)).toBe(true);
  });

  it.each([
    '',
    'nope',
    '@example.com',
    'ada@',
    'ada@example',
    'ada@@example.com',
    'ada @example.com',
    'ada\t@example.com',
    'ada\u0000@example.com',
    '"ada"@example.com',
    'a<b>@example.com',
    "o'brien@example.com",
    '.ada@example.com',
    'ada.@example.com',
    'a..da@example.com',
    'ada@exa_mple.com',
    'ada@-example.com',
    'ada@example..com',
    'ada@bücher.example',
    'ada@example.c0m',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(250)}.com`,
    'ada@example.com\ud800',
  ])('refuses %j', (bad) => {
    expect(isEmailAddress(bad)).toBe(false);
  });
});

describe(readHttpUrl.name, () => {
  it('answers the stored form', () => {
    expect(readHttpUrl(' HTTPS://Bücher.Example/a/../b ')).toEqual({
      ok: true,
      href: 'https://xn--bcher-kva.example/b',
    });
  });

  it('tells credentials apart from anything else refused', () => {
    expect(readHttpUrl('https://user:pw@example.com/')).toEqual({ ok: false, credentials: true });
    expect(readHttpUrl('https://exa\tmple.com/')).toEqual({ ok: false, credentials: false });
    expect(readHttpUrl('javascript:alert(1)')).toEqual({ ok: false, credentials: false });
    expect(readHttpUrl(`https://example.com/${'a'.repeat(30)}`, 30)).toEqual({
      ok: false,
      credentials: false,
    });
  });
});
