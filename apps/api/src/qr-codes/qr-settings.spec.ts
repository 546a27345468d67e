import { AppError } from '@app/common';
import { checkContrast, mergeSettings, renderOptions, STYLE_DEFAULTS } from './qr-settings';

const entries = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (e) {
    return (e as AppError).toEntries();
  }
  return 'no error';
};

describe('mergeSettings', () => {
  it('fills defaults, keeps the content fields of the type and names the content after it', () => {
    expect(mergeSettings('url', null, null, { url: 'https://e.com/', phone: '+1' })).toEqual({
      settings: { ...STYLE_DEFAULTS, url: 'https://e.com/' },
      embedded: 'https://e.com/',
    });
  });

  it('keeps previous style and content on a partial update of the same type', () => {
    const first = mergeSettings('sms', null, null, {
      sms: '+14155552671',
      sms_body: 'Hi',
      size: 300,
    });
    const next = mergeSettings('sms', first.settings, 'sms', { sms_body: 'Bye' });
    expect(next).toEqual({
      settings: { ...STYLE_DEFAULTS, size: 300, sms: '+14155552671', sms_body: 'Bye' },
      embedded: 'sms:+14155552671?body=Bye',
    });
  });

  it('drops the previous content when the type changes', () => {
    const first = mergeSettings('phone', null, null, { phone: '+14155552671' });
    expect(entries(() => mergeSettings('url', first.settings, 'phone', {}))).toEqual([
      {
        status: 400,
        title: 'url is required for this type.',
        field: 'url',
        code: 'validation_failed',
      },
    ]);
  });

  it('pairs vCard phone labels with values', () => {
    const { settings } = mergeSettings('vcard', null, null, {
      vcard_first_name: 'Ada',
      vcard_phone_number_label: ['Work'],
      vcard_phone_number_value: ['+44 20 7946 0000'],
    });
    expect(settings.vcard_phone_numbers).toEqual([{ label: 'Work', value: '+44 20 7946 0000' }]);
    expect(settings.vcard).toBe(
      'BEGIN:VCARD\r\nVERSION:3.0\r\nN:;Ada;;;\r\nFN:Ada\r\nTEL;TYPE=Work:+44 20 7946 0000\r\nEND:VCARD\r\n',
    );
  });

  it('reads amounts stored as JSON numbers by codes made before they were decimal strings', () => {
    const previous = {
      ...STYLE_DEFAULTS,
      crypto_address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
      crypto_amount: 1e-8,
    };
    expect(mergeSettings('crypto', previous, 'crypto', { size: 300 })).toEqual({
      settings: {
        ...STYLE_DEFAULTS,
        size: 300,
        crypto_address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
        crypto_amount: '0.00000001',
        crypto: 'bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=0.00000001',
      },
      embedded: 'bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=0.00000001',
    });
  });

  it('takes a JSON null amount as no amount', () => {
    const dto = {
      crypto_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      crypto_amount: null,
    } as unknown as {
      crypto_address: string;
    };
    expect(mergeSettings('crypto', null, null, dto).embedded).toBe(
      'bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    );
  });

  it('takes the seed-style single content string verbatim when no structured field is sent', () => {
    expect(mergeSettings('wifi', null, null, { wifi: 'WIFI:S:x;;' }).embedded).toBe('WIFI:S:x;;');
  });
});

describe('checkContrast', () => {
  const base = mergeSettings('text', null, null, { text: 'x' }).settings;

  it('accepts black on white', () => {
    expect(entries(() => checkContrast(base))).toBe('no error');
  });

  it('judges a transparent background as it looks on white paper', () => {
    const settings = {
      ...base,
      foreground_color: '#777777',
      background_color: '#000000',
      background_color_transparency: 100,
    };
    expect(entries(() => checkContrast(settings))).toBe('no error');
  });

  it('reports each gradient stop that is too light', () => {
    const settings = {
      ...base,
      foreground_type: 'gradient',
      foreground_gradient_one: '#000000',
      foreground_gradient_two: '#bbbbbb',
    };
    expect(entries(() => checkContrast(settings))).toEqual([
      {
        status: 400,
        title:
          'foreground_gradient_two #bbbbbb on the background #ffffff has a contrast of 1.91:1; a code needs at least 3:1 to scan.',
        field: 'foreground_gradient_two',
        code: 'validation_failed',
      },
    ]);
  });
});

describe('renderOptions', () => {
  it('colours a banded frame with the foreground and white text unless custom colours are set', () => {
    const settings = {
      ...mergeSettings('text', null, null, { text: 'x' }).settings,
      frame: 'straight_bottom_text',
      frame_text: 'Hi',
      foreground_color: '#112233',
    };
    const images = { logo: null, background: null, foreground: null };
    expect(renderOptions('text', settings, 'x', images).frame).toEqual({
      name: 'straight_bottom_text',
      text: 'Hi',
      textSize: 0,
      font: 'sora',
      color: '#112233',
      textColor: '#ffffff',
    });
    expect(
      renderOptions(
        'text',
        {
          ...settings,
          frame_custom_colors: true,
          frame_color: '#445566',
          frame_text_color: '#000000',
        },
        'x',
        images,
      ).frame,
    ).toMatchObject({
      color: '#445566',
      textColor: '#000000',
    });
  });
});
