import { ContentError, encodeContent } from '.';

/** A mailto: URI as a browser reads it (WHATWG URL), address and header fields decoded. */
function readMailto(uri: string) {
  const url = new URL(uri);
  return {
    protocol: url.protocol,
    to: decodeURIComponent(url.pathname),
    hash: url.hash,
    headers: Object.fromEntries(url.searchParams),
  };
}

/** RFC 5870: `geo-URI = "geo:" coord-a "," coord-b [ "," coord-c ] p`, `num = [ "-" ] pnum`. */
const GEO = /^geo:(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)(?:,-?\d+(?:\.\d+)?)?$/;

/** RFC 3966 `global-number-digits = "+" *phonedigit DIGIT *phonedigit`, visual separators `-.()`. */
const TEL_GLOBAL = /^tel:\+[\d().-]*\d[\d().-]*$/;

describe('mailto (RFC 6068)', () => {
  it('percent-encodes an address with ? and # in its local part, and the header fields', () => {
    const uri = encodeContent('email', {
      email: 'a?b#c@example.com',
      email_subject: 'Q&A: 1+1=2? 100% #sure',
      email_body: 'Zoë\nLine 2 & more',
    });
    expect(readMailto(uri)).toEqual({
      protocol: 'mailto:',
      to: 'a?b#c@example.com',
      hash: '',
      headers: { subject: 'Q&A: 1+1=2? 100% #sure', body: 'Zoë\r\nLine 2 & more' },
    });
    expect(uri).toBe(
      'mailto:a%3Fb%23c@example.com?subject=Q%26A:%201%2B1%3D2%3F%20100%25%20%23sure&body=Zo%C3%AB%0D%0ALine%202%20%26%20more',
    );
  });

  it('keeps the characters RFC 6068 allows in an address, + and the comma between two', () => {
    const uri = encodeContent('email', { email: "o'brien+tag@example.com,b@example.org" });
    expect(uri).toBe("mailto:o'brien+tag@example.com,b@example.org");
    expect(readMailto(uri).to).toBe("o'brien+tag@example.com,b@example.org");
  });

  it('refuses a line break in the subject, a header field', () => {
    expect(() =>
      encodeContent('email', { email: 'a@example.com', email_subject: 'Hi\r\nBcc: x@evil.test' }),
    ).toThrow(new ContentError('email_subject', 'email_subject cannot contain line breaks'));
  });
});

describe('geo (RFC 5870)', () => {
  it.each([
    ['0.0000001', '-0.00000005', 'geo:0.0000001,-0.00000005'],
    ['48.2082', '16.3738', 'geo:48.2082,16.3738'],
    ['-90', '180.000', 'geo:-90,180'],
    ['-0.0', '0', 'geo:0,0'],
  ])('writes %p, %p as plain decimals', (lat, lon, uri) => {
    const geo = encodeContent('location', { location_latitude: lat, location_longitude: lon });
    expect(geo).toBe(uri);
    expect(geo).toMatch(GEO);
  });

  it('refuses a latitude beyond the pole', () => {
    expect(() =>
      encodeContent('location', { location_latitude: '90.0001', location_longitude: '0' }),
    ).toThrow(
      new ContentError('location_latitude', 'location_latitude must be a number from -90 to 90'),
    );
  });
});

describe('tel (RFC 3966)', () => {
  it.each([
    ['+49 151 1234-5678', 'tel:+491511234-5678'],
    ['+1 (555) 123.4567', 'tel:+1(555)123.4567'],
    ['\t+44 20 7946 0000 ', 'tel:+442079460000'],
  ])('writes %p without spaces', (phone, uri) => {
    const tel = encodeContent('phone', { phone });
    expect(tel).toBe(uri);
    expect(tel).toMatch(TEL_GLOBAL);
  });

  it.each(['+49 30 / 123', 'call me', '+', '+49;ext=1'])('refuses %p', (phone) => {
    expect(() => encodeContent('phone', { phone })).toThrow(
      new ContentError('phone', 'phone must be a telephone number such as +49 30 1234567'),
    );
  });
});
