import { Problem } from '@app/common';
import { TargetingRule, TargetingType } from '@app/database';
import { MAX_TARGETING_RULES } from './dto/create-link.dto';
import { isTargetingType, parseTargeting, parseWhatsappUrl, whatsappUrl } from './link-rules';

const URL_A = 'https://a.example.com/';
const URL_B = 'https://b.example.com/path?x=1';

function parse(
  type: TargetingType,
  keys: string[] | undefined,
  values: string[] | undefined,
): { rules: TargetingRule[]; problems: Problem[] } {
  return parseTargeting(type, {
    [`targeting_${type}_key`]: keys,
    [`targeting_${type}_value`]: values,
  });
}

function keyProblem(type: TargetingType, index: number, description: string): Problem {
  return {
    title: `targeting_${type}_key[${index}]: ${description}.`,
    field: `targeting_${type}_key`,
  };
}

function valueProblem(type: TargetingType, index: number): Problem {
  return {
    title: `targeting_${type}_value[${index}] must be an http:// or https:// URL with a host.`,
    field: `targeting_${type}_value`,
  };
}

describe(parseTargeting.name, () => {
  describe('country_code', () => {
    it('upper-cases and trims two-letter codes', () => {
      expect(parse('country_code', ['us', ' gB '], [URL_A, ` ${URL_B} `])).toEqual({
        rules: [
          { key: 'US', value: URL_A },
          { key: 'GB', value: URL_B },
        ],
        problems: [],
      });
    });

    it('rejects codes that are not two letters', () => {
      const description = 'a two-letter ISO 3166-1 country code, e.g. US';
      expect(parse('country_code', ['USA', 'U1', ''], [URL_A, URL_A, URL_A])).toEqual({
        rules: [],
        problems: [
          keyProblem('country_code', 0, description),
          keyProblem('country_code', 1, description),
          keyProblem('country_code', 2, description),
        ],
      });
    });
  });

  describe('continent_code', () => {
    it('upper-cases codes from the continent list', () => {
      expect(parse('continent_code', ['eu', 'Na', 'AN'], [URL_A, URL_B, URL_A])).toEqual({
        rules: [
          { key: 'EU', value: URL_A },
          { key: 'NA', value: URL_B },
          { key: 'AN', value: URL_A },
        ],
        problems: [],
      });
    });

    it('rejects two-letter codes that are not continents', () => {
      const description = 'a continent code, one of AF, AN, AS, EU, NA, OC, SA';
      expect(parse('continent_code', ['EU', 'US', 'XX'], [URL_A, URL_A, URL_A])).toEqual({
        rules: [{ key: 'EU', value: URL_A }],
        problems: [
          keyProblem('continent_code', 1, description),
          keyProblem('continent_code', 2, description),
        ],
      });
    });
  });

  describe('device_type', () => {
    it('lower-cases known device types', () => {
      expect(parse('device_type', ['Desktop', 'MOBILE', 'tablet'], [URL_A, URL_B, URL_A])).toEqual({
        rules: [
          { key: 'desktop', value: URL_A },
          { key: 'mobile', value: URL_B },
          { key: 'tablet', value: URL_A },
        ],
        problems: [],
      });
    });

    it('rejects unknown device types', () => {
      expect(parse('device_type', ['phone'], [URL_A])).toEqual({
        rules: [],
        problems: [keyProblem('device_type', 0, 'a device type, one of desktop, mobile, tablet')],
      });
    });
  });

  describe('os_name', () => {
    it('keeps names as given, trimmed', () => {
      expect(parse('os_name', [' Windows ', 'iOS'], [URL_A, URL_B])).toEqual({
        rules: [
          { key: 'Windows', value: URL_A },
          { key: 'iOS', value: URL_B },
        ],
        problems: [],
      });
    });

    it('rejects empty names and names over 64 characters', () => {
      const description =
        'an operating system name such as Windows, iOS or Android (at most 64 characters)';
      expect(
        parse('os_name', ['  ', 'x'.repeat(65), 'x'.repeat(64)], [URL_A, URL_A, URL_A]),
      ).toEqual({
        rules: [{ key: 'x'.repeat(64), value: URL_A }],
        problems: [keyProblem('os_name', 0, description), keyProblem('os_name', 1, description)],
      });
    });
  });

  describe('browser_name', () => {
    it('keeps names as given', () => {
      expect(parse('browser_name', ['Mobile Safari'], [URL_A])).toEqual({
        rules: [{ key: 'Mobile Safari', value: URL_A }],
        problems: [],
      });
    });

    it('rejects an empty name', () => {
      expect(parse('browser_name', [''], [URL_A])).toEqual({
        rules: [],
        problems: [
          keyProblem(
            'browser_name',
            0,
            'a browser name such as Chrome, Firefox or Safari (at most 64 characters)',
          ),
        ],
      });
    });
  });

  describe('browser_language', () => {
    it('lower-cases two- and three-letter codes', () => {
      expect(parse('browser_language', ['EN', 'Fil'], [URL_A, URL_B])).toEqual({
        rules: [
          { key: 'en', value: URL_A },
          { key: 'fil', value: URL_B },
        ],
        problems: [],
      });
    });

    it('rejects regional tags and other lengths', () => {
      const description = 'a two- or three-letter language code, e.g. en';
      expect(parse('browser_language', ['en-GB', 'e', 'engl'], [URL_A, URL_A, URL_A])).toEqual({
        rules: [],
        problems: [
          keyProblem('browser_language', 0, description),
          keyProblem('browser_language', 1, description),
          keyProblem('browser_language', 2, description),
        ],
      });
    });
  });

  describe('rotation', () => {
    it('normalises weights from 1 to 1000 as strings', () => {
      expect(parse('rotation', ['1', '0010', '1000', ' 7 '], [URL_A, URL_B, URL_A, URL_B])).toEqual(
        {
          rules: [
            { key: '1', value: URL_A },
            { key: '10', value: URL_B },
            { key: '1000', value: URL_A },
            { key: '7', value: URL_B },
          ],
          problems: [],
        },
      );
    });

    it('rejects weights outside 1..1000 and non-integers', () => {
      const description = 'a whole-number weight from 1 to 1000';
      expect(
        parse('rotation', ['0', '1001', '1.5', '-3', '10000', 'ten'], Array(6).fill(URL_A)),
      ).toEqual({
        rules: [],
        problems: [0, 1, 2, 3, 4, 5].map((i) => keyProblem('rotation', i, description)),
      });
    });
  });

  it('rejects a body without keys, naming the key field', () => {
    expect(parse('country_code', undefined, [URL_A])).toEqual({
      rules: [],
      problems: [
        {
          title:
            'targeting_country_code_key needs at least one rule for targeting_type country_code.',
          field: 'targeting_country_code_key',
        },
      ],
    });
  });

  it('rejects an empty key list', () => {
    expect(parse('rotation', [], [])).toEqual({
      rules: [],
      problems: [
        {
          title: 'targeting_rotation_key needs at least one rule for targeting_type rotation.',
          field: 'targeting_rotation_key',
        },
      ],
    });
  });

  it('rejects more keys than values, naming the value field', () => {
    expect(parse('country_code', ['US', 'GB'], [URL_A])).toEqual({
      rules: [],
      problems: [
        {
          title:
            'targeting_country_code_key and targeting_country_code_value must have the same number of entries (2 and 1).',
          field: 'targeting_country_code_value',
        },
      ],
    });
  });

  it('rejects more values than keys', () => {
    expect(parse('device_type', ['mobile'], undefined).problems).toEqual([
      {
        title:
          'targeting_device_type_key and targeting_device_type_value must have the same number of entries (1 and 0).',
        field: 'targeting_device_type_value',
      },
    ]);
    expect(parse('device_type', ['mobile'], [URL_A, URL_B])).toEqual({
      rules: [],
      problems: [
        {
          title:
            'targeting_device_type_key and targeting_device_type_value must have the same number of entries (1 and 2).',
          field: 'targeting_device_type_value',
        },
      ],
    });
  });

  it('rejects more than the maximum number of rules', () => {
    const count = MAX_TARGETING_RULES + 1;
    expect(parse('rotation', Array(count).fill('1'), Array(count).fill(URL_A))).toEqual({
      rules: [],
      problems: [
        {
          title: `At most ${MAX_TARGETING_RULES} targeting rules.`,
          field: 'targeting_rotation_key',
        },
      ],
    });
  });

  it('accepts exactly the maximum number of rules', () => {
    const count = MAX_TARGETING_RULES;
    const { rules, problems } = parse('rotation', Array(count).fill('1'), Array(count).fill(URL_A));
    expect({ count: rules.length, problems }).toEqual({ count, problems: [] });
  });

  it('rejects a javascript: value, naming the value field', () => {
    expect(parse('country_code', ['US'], ['javascript:alert(1)']).problems).toEqual([
      valueProblem('country_code', 0),
    ]);
  });

  it('rejects a relative value', () => {
    expect(parse('country_code', ['US', 'GB'], [URL_A, '/relative/path']).problems).toEqual([
      valueProblem('country_code', 1),
    ]);
  });

  it('rejects other schemes and values over 2048 characters', () => {
    const long = `https://example.com/${'a'.repeat(2030)}`;
    expect(
      parse('rotation', ['1', '1', '1'], ['ftp://example.com/', long, 'not a url']).problems,
    ).toEqual([
      valueProblem('rotation', 0),
      valueProblem('rotation', 1),
      valueProblem('rotation', 2),
    ]);
  });

  it('leaves out a rule whose value is not an http URL', () => {
    // The service passes every returned rule to `new URL()`; a relative value must not reach it.
    expect(parse('country_code', ['US', 'GB'], ['/relative/path', URL_A])).toEqual({
      rules: [{ key: 'GB', value: URL_A }],
      problems: [valueProblem('country_code', 0)],
    });
  });

  it('reports both the key and the value of the same bad rule', () => {
    expect(parse('device_type', ['watch'], ['mailto:a@b.c'])).toEqual({
      rules: [],
      problems: [
        keyProblem('device_type', 0, 'a device type, one of desktop, mobile, tablet'),
        valueProblem('device_type', 0),
      ],
    });
  });
});

describe(isTargetingType.name, () => {
  it('accepts every targeting type and rejects anything else', () => {
    expect(
      ['country_code', 'rotation', 'browser_language', 'false', '', 'Country_Code'].map(
        isTargetingType,
      ),
    ).toEqual([true, true, true, false, false, false]);
  });
});

describe(whatsappUrl.name, () => {
  it('builds a wa.me address without a message', () => {
    expect(whatsappUrl('15551234567', null)).toEqual('https://wa.me/15551234567');
    expect(whatsappUrl('15551234567', undefined)).toEqual('https://wa.me/15551234567');
    expect(whatsappUrl('15551234567', '')).toEqual('https://wa.me/15551234567');
  });

  it('URL-encodes the message', () => {
    expect(whatsappUrl('15551234567', 'Hi there & welcome 🎉 100%+?')).toEqual(
      'https://wa.me/15551234567?text=Hi%20there%20%26%20welcome%20%F0%9F%8E%89%20100%25%2B%3F',
    );
  });

  it('round-trips through parseWhatsappUrl', () => {
    const message = 'Hi there & welcome 🎉 a+b=c #1';
    expect(parseWhatsappUrl(whatsappUrl('447700900123', message))).toEqual({
      phoneNumber: '447700900123',
      message,
    });
  });
});

describe(parseWhatsappUrl.name, () => {
  it('reads the forms WhatsApp itself redirects to, and an empty text as no message', () => {
    expect(parseWhatsappUrl('https://wa.me/15551234567/')).toEqual({
      phoneNumber: '15551234567',
      message: null,
    });
    expect(parseWhatsappUrl('https://api.whatsapp.com/send/?phone=15551234567&text=')).toEqual({
      phoneNumber: '15551234567',
      message: null,
    });
  });

  it('reads a wa.me address without a message', () => {
    expect(parseWhatsappUrl('https://wa.me/15551234567')).toEqual({
      phoneNumber: '15551234567',
      message: null,
    });
  });

  it('reads a wa.me address with a message', () => {
    expect(
      parseWhatsappUrl('https://wa.me/15551234567?text=Hello%20%26%20bye%20%F0%9F%8E%89'),
    ).toEqual({ phoneNumber: '15551234567', message: 'Hello & bye 🎉' });
  });

  it('reads an api.whatsapp.com/send address', () => {
    expect(
      parseWhatsappUrl('https://api.whatsapp.com/send?phone=15551234567&text=Hello+there'),
    ).toEqual({ phoneNumber: '15551234567', message: 'Hello there' });
    expect(parseWhatsappUrl('https://api.whatsapp.com/send?phone=15551234567')).toEqual({
      phoneNumber: '15551234567',
      message: null,
    });
  });

  it('rejects http addresses', () => {
    expect([
      parseWhatsappUrl('http://wa.me/15551234567'),
      parseWhatsappUrl('http://api.whatsapp.com/send?phone=15551234567'),
    ]).toEqual([null, null]);
  });

  it('rejects other hosts and paths', () => {
    expect([
      parseWhatsappUrl('https://example.com/15551234567'),
      parseWhatsappUrl('https://wa.me.example.com/15551234567'),
      parseWhatsappUrl('https://api.whatsapp.com/other?phone=15551234567'),
      parseWhatsappUrl('https://web.whatsapp.com/send?phone=15551234567'),
    ]).toEqual([null, null, null, null]);
  });

  it('rejects numbers that are not 7 to 15 digits without a leading zero', () => {
    expect([
      parseWhatsappUrl('https://wa.me/+15551234567'),
      parseWhatsappUrl('https://wa.me/1555-123-4567'),
      parseWhatsappUrl('https://wa.me/abcdefghij'),
      parseWhatsappUrl('https://wa.me/05551234567'),
      parseWhatsappUrl('https://wa.me/123456'),
      parseWhatsappUrl('https://wa.me/1234567890123456'),
      parseWhatsappUrl('https://wa.me/'),
      parseWhatsappUrl('https://api.whatsapp.com/send?phone=abc'),
      parseWhatsappUrl('https://api.whatsapp.com/send'),
    ]).toEqual([null, null, null, null, null, null, null, null, null]);
  });

  it('rejects values that are not URLs', () => {
    expect([parseWhatsappUrl('wa.me/15551234567'), parseWhatsappUrl('')]).toEqual([null, null]);
  });
});
