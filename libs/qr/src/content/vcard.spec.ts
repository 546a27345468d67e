import { createRequire } from 'node:module';
import type ICALModule from 'ical.js' with { 'resolution-mode': 'import' };
import { ContentError, encodeContent, QrContentFields } from '.';

const ICAL = createRequire(__filename)('ical.js') as typeof ICALModule;

/** Each property of the card as ical.js reads a vCard: name, parameters, value type, values. */
function read(fields: QrContentFields): unknown[] {
  const card = new ICAL.Component(ICAL.parse(encodeContent('vcard', fields)));
  expect(card.name).toBe('vcard');
  return card.getAllProperties().map((p) => p.toJSON());
}

describe('vCard 3.0, read by ical.js', () => {
  // RFC 2426 escapes `;` in every text value; ical.js follows RFC 6350 ("MAY be escaped" outside
  // compound values) and keeps `\;` as written in single-valued text, so semicolons are checked
  // in N, a compound value.
  it('keeps URLs and social profile URLs as written, and text values through their escapes', () => {
    const url = 'https://example.com/a,b;c?x=1&y=2\\z';
    const social = 'https://social.example/@ada,lovelace';
    expect(
      read({
        vcard_first_name: 'Ada, Countess',
        vcard_last_name: 'Lovelace; Byron',
        vcard_job_title: 'Analyst, "first"',
        vcard_company: 'Engines\\Co',
        vcard_note: 'First\nprogrammer, 1843: notes',
        vcard_url: url,
        vcard_socials: [{ label: 'Mastodon', value: social }],
      }),
    ).toEqual([
      ['version', {}, 'text', '3.0'],
      ['n', {}, 'text', ['Lovelace; Byron', 'Ada, Countess', '', '', '']],
      ['fn', {}, 'text', 'Ada, Countess Lovelace\\; Byron'],
      ['org', {}, 'text', 'Engines\\Co'],
      ['title', {}, 'text', 'Analyst, "first"'],
      ['url', {}, 'uri', url],
      ['note', {}, 'text', 'First\nprogrammer, 1843: notes'],
      ['x-socialprofile', { type: 'Mastodon' }, 'unknown', social],
    ]);
  });

  it.each([
    ['work;voice', ['work', 'voice']],
    ['Work, Voice ,pref', ['Work', 'Voice', 'pref']],
    ['cell', 'cell'],
    ['ce:ll;', 'cell'],
  ])('makes the phone label %p the types %p', (label, type) => {
    expect(
      read({ vcard_first_name: 'A', vcard_phone_numbers: [{ label, value: '+44 20 7946 0000' }] }),
    ).toContainEqual(['tel', { type }, 'phone-number', '+44 20 7946 0000']);
  });

  it.each([
    ['+44 20 7946 0000', '+44 20 7946 0000'],
    [' (555)  123-4567 ext. 89 ', '(555) 123-4567 ext. 89'],
    ['*31#555.123/4567', '*31#555.123/4567'],
    ['+49 (30) 1234-5678 x12', '+49 (30) 1234-5678 x12'],
    ['+1 202 555 0123', '+1 202 555 0123'],
    ['+49 30/1234567', '+49 30/1234567'],
  ])('writes the phone number %p as ical.js reads it back: %p', (value, number) => {
    expect(
      read({ vcard_first_name: 'A', vcard_phone_numbers: [{ label: 'cell', value }] }),
    ).toContainEqual(['tel', { type: 'cell' }, 'phone-number', number]);
  });

  // A TEL value is a phone-number, not text: `\,` `\;` `\\` escapes are not part of it.
  it.each([
    '+1 555, 123',
    '+1 555;ext=2',
    '+1 555\\9',
    'call me',
    '+',
    // Shaped as numbers, but no numbering plan has them (libphonenumber, as for `phone`).
    '+1 555 123 4567',
    '+44 20 7946',
    '+999 1234 5678',
    '+49 30 1234567*1',
  ])('refuses the phone number %p', (value) => {
    expect(() =>
      encodeContent('vcard', {
        vcard_first_name: 'A',
        vcard_phone_numbers: [{ label: 'cell', value }],
      }),
    ).toThrow(
      new ContentError(
        'vcard_phone_number_value',
        `vcard_phone_number_value must be telephone numbers such as +44 20 7946 0000 (an international one that libphonenumber knows as valid), not ${JSON.stringify(value)}`,
      ),
    );
  });

  it.each([
    'vcard_first_name',
    'vcard_last_name',
    'vcard_company',
    'vcard_job_title',
    'vcard_email',
    'vcard_street',
    'vcard_zip',
    'vcard_note',
  ] as const)('refuses %s with a control character instead of dropping it', (field) => {
    for (const c of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085']) {
      expect(() =>
        encodeContent('vcard', { vcard_first_name: 'A', vcard_company: 'C', [field]: `a${c}b` }),
      ).toThrow(
        new ContentError(
          field,
          `${field} cannot contain control characters other than line breaks and tabs`,
        ),
      );
    }
  });

  it('keeps a tab and writes a line break of a note as \\n', () => {
    const card = encodeContent('vcard', { vcard_first_name: 'A', vcard_note: 'one\ttwo\r\nthree' });
    expect(card).toContain('NOTE:one\ttwo\\nthree\r\n');
  });

  it('writes the birthday as a date that ical.js reads', () => {
    const card = new ICAL.Component(
      ICAL.parse(encodeContent('vcard', { vcard_first_name: 'A', vcard_birthday: '1815-12-10' })),
    );
    expect(card.getFirstProperty('bday')?.type).toBe('date');
    expect(card.getFirstPropertyValue('bday')?.toString()).toBe('1815-12-10');
  });

  // ical.js throws on `BDAY:March 3` ("Could not extract integer").
  it.each(['March 3', '1815-02-30', '10.12.1815', '18151210'])(
    'refuses the birthday %p',
    (value) => {
      expect(() =>
        encodeContent('vcard', { vcard_first_name: 'A', vcard_birthday: value }),
      ).toThrow(
        new ContentError(
          'vcard_birthday',
          'vcard_birthday must be a date as Y-m-d, such as 1815-12-10',
        ),
      );
    },
  );

  // RFC 2426 §4 `vcard = "BEGIN" ":" "VCARD" 1*CRLF 1*(contentline) "END" ":" "VCARD" 1*CRLF`.
  it('ends every content line with CRLF, END:VCARD too', () => {
    const payload = encodeContent('vcard', { vcard_first_name: 'A' });
    expect(payload).toMatch(/^BEGIN:VCARD\r\n(?:[^\r\n]+\r\n)+END:VCARD\r\n$/);
  });

  it('folds long lines at 75 octets, and ical.js unfolds them', () => {
    const note = `${'Grüße '.repeat(30)}👋`;
    const payload = encodeContent('vcard', { vcard_first_name: 'A', vcard_note: note });
    for (const line of payload.split('\r\n')) {
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      expect(line.isWellFormed()).toBe(true);
    }
    expect(read({ vcard_first_name: 'A', vcard_note: note })).toContainEqual([
      'note',
      {},
      'text',
      note,
    ]);
  });

  it('refuses a URL with a line break, which would start a property', () => {
    expect(() =>
      encodeContent('vcard', { vcard_first_name: 'A', vcard_url: 'https://e.com\nTEL:+1' }),
    ).toThrow(
      new ContentError(
        'vcard_url',
        'vcard_url cannot contain line breaks or other control characters',
      ),
    );
  });
});
