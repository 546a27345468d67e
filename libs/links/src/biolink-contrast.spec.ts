import { defaultBiolinkSettings } from '@app/database';
import { biolinkContrastProblems } from './biolink-contrast';

describe(biolinkContrastProblems.name, () => {
  const page = (colours: Record<string, string | null>) => ({
    ...defaultBiolinkSettings(),
    ...colours,
  });

  it('takes the default colours and 4.5:1 exactly as WCAG publishes it (#767676 on white)', () => {
    const given = { text_color: '#767676', background_color: '#ffffff' };
    expect(biolinkContrastProblems(page(given), given)).toEqual([]);
    expect(biolinkContrastProblems(defaultBiolinkSettings(), { text_color: '#18181b' })).toEqual(
      [],
    );
  });

  it('refuses #777777 on white (4.47:1), naming both colours', () => {
    const given = { text_color: '#777777', background_color: '#ffffff' };
    expect(biolinkContrastProblems(page(given), given)).toEqual([
      {
        field: 'text_color',
        title:
          'text_color #777777 on background_color #ffffff has a contrast of 4.47:1; text on a bio page needs at least 4.5:1 (WCAG 2.1 AA).',
      },
    ]);
  });

  it('checks both ends of a gradient and the buttons', () => {
    const given = {
      background_color_two: '#000000',
      button_color: '#fbbf24',
      button_text_color: '#ffffff',
    };
    expect(biolinkContrastProblems(page(given), given).map((p) => p.field)).toEqual([
      'background_color_two',
      'button_text_color',
    ]);
  });

  it('leaves alone the pairs a request does not touch', () => {
    const stored = page({ text_color: '#ffffff', background_color: '#ffffff' });
    expect(biolinkContrastProblems(stored, { button_color: '#18181b' })).toEqual([]);
  });
});
