import { readScanMarker, SCAN_MARKER, withScanMarker } from './scan-marker';

describe('scan marker', () => {
  it('is ld_qr, appended after the query the URL has, before its fragment', () => {
    expect(SCAN_MARKER).toBe('ld_qr');
    expect(withScanMarker('https://links.test/menu', 35)).toBe('https://links.test/menu?ld_qr=z');
    expect(withScanMarker('https://links.test/menu?utm_source=poster', 36)).toBe(
      'https://links.test/menu?utm_source=poster&ld_qr=10',
    );
    expect(withScanMarker('https://links.test/menu?', 1)).toBe('https://links.test/menu?ld_qr=1');
    expect(withScanMarker('https://links.test/menu?a=1&', 1)).toBe(
      'https://links.test/menu?a=1&ld_qr=1',
    );
    expect(withScanMarker('https://links.test/menu#top', 1)).toBe(
      'https://links.test/menu?ld_qr=1#top',
    );
  });

  it('reads the code id back and removes every marker, keeping the other parameters as sent', () => {
    expect(readScanMarker('ld_qr=z')).toEqual({ qrCodeId: 35, query: null });
    expect(readScanMarker('utm_source=poster&ld_qr=10')).toEqual({
      qrCodeId: 36,
      query: 'utm_source=poster',
    });
    expect(readScanMarker('a=%20x&ld_qr=10&b=&ld_qr=11&c')).toEqual({
      qrCodeId: 36,
      query: 'a=%20x&b=&c',
    });
    const id = Number.MAX_SAFE_INTEGER;
    expect(readScanMarker(new URL(withScanMarker('https://x.test/a', id)).search.slice(1))).toEqual(
      { qrCodeId: id, query: null },
    );
  });

  it('leaves queries without a marker alone and ignores bad markers (removed all the same)', () => {
    expect(readScanMarker(null)).toEqual({ qrCodeId: 0, query: null });
    expect(readScanMarker('qr=5&x_ld_qr=5')).toEqual({ qrCodeId: 0, query: 'qr=5&x_ld_qr=5' });
    expect(readScanMarker('ld_qr=')).toEqual({ qrCodeId: 0, query: null });
    expect(readScanMarker('ld_qr=0&a=1')).toEqual({ qrCodeId: 0, query: 'a=1' });
    expect(readScanMarker('ld_qr=ZZ')).toEqual({ qrCodeId: 0, query: null });
    expect(readScanMarker('ld_qr=-1')).toEqual({ qrCodeId: 0, query: null });
    expect(readScanMarker('ld_qr=zzzzzzzzzzz')).toEqual({ qrCodeId: 0, query: null });
    expect(readScanMarker('ld_qr=1%00')).toEqual({ qrCodeId: 0, query: null });
  });
});
