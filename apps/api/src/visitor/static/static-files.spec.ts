import type { IncomingMessage } from 'node:http';
import { isNotModified, sitePath } from './static-files';

describe(sitePath.name, () => {
  it('decodes each segment once and keeps a trailing slash as an empty last segment', () => {
    expect(sitePath('/')).toEqual(['']);
    expect(sitePath('/css/site.css')).toEqual(['css', 'site.css']);
    expect(sitePath('/docs/')).toEqual(['docs', '']);
    expect(sitePath('/h%C3%A9llo%20w.html')).toEqual(['héllo w.html']);
    expect(sitePath('/%252e%252e/x')).toEqual(['%2e%2e', 'x']);
  });

  it('normalises segments to NFC, as names are stored', () => {
    const nfc = 'caf\u00e9.css';
    expect(sitePath('/cafe%CC%81.css')).toEqual([nfc]);
    expect(sitePath('/caf%C3%A9.css')).toEqual([nfc]);
    expect(sitePath('/cafe\u0301/')).toEqual(['caf\u00e9', '']);
  });

  it.each([
    '/..',
    '/%2e%2e/x',
    '/a/%2E%2E/b',
    '/.',
    '/a%2fb',
    '/a%2Fb',
    '/a%5cb',
    '/%00',
    '/a//b',
    '/%E0%A4%A',
    '/a\\b',
  ])('refuses %s', (rest) => {
    expect(sitePath(rest)).toBeNull();
  });
});

describe(isNotModified.name, () => {
  const mtime = new Date('2026-11-21T10:00:00.500Z');
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

  it('compares entity tags, weak or strong, and lets If-None-Match win', () => {
    expect(isNotModified(req({ 'if-none-match': '"a", W/"b"' }), '"b"', mtime)).toBe(true);
    expect(isNotModified(req({ 'if-none-match': '*' }), '"b"', mtime)).toBe(true);
    expect(
      isNotModified(
        req({ 'if-none-match': '"x"', 'if-modified-since': 'Sat, 21 Nov 2026 10:00:00 GMT' }),
        '"b"',
        mtime,
      ),
    ).toBe(false);
  });

  it('compares If-Modified-Since to the second', () => {
    expect(
      isNotModified(req({ 'if-modified-since': 'Sat, 21 Nov 2026 10:00:00 GMT' }), '"b"', mtime),
    ).toBe(true);
    expect(
      isNotModified(req({ 'if-modified-since': 'Sat, 21 Nov 2026 09:59:59 GMT' }), '"b"', mtime),
    ).toBe(false);
    expect(isNotModified(req({ 'if-modified-since': 'yesterday' }), '"b"', mtime)).toBe(false);
    expect(isNotModified(req({}), '"b"', mtime)).toBe(false);
  });
});
