import { visitText } from './visit-enricher';

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
