import { escapeHtml } from '@app/common';
import { mailtoHref, safeHttpUrl, telHref } from './escape';
import { renderPreviewPage, renderSignature } from './render';
import { DEFAULT_SETTINGS, SIGNATURE_TEMPLATES, SignatureSettings, withDefaults } from './settings';

const HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;';
const APP = 'https://links.example.com';

function settings(values: Partial<SignatureSettings>): SignatureSettings {
  return { ...DEFAULT_SETTINGS, ...values };
}

describe(renderSignature.name, () => {
  describe.each(SIGNATURE_TEMPLATES)('template %s', (template) => {
    it('escapes every text field', () => {
      const html = renderSignature(
        template,
        settings({
          full_name: HOSTILE,
          job_title: HOSTILE,
          department: HOSTILE,
          company: HOSTILE,
          sign_off: HOSTILE,
          address: HOSTILE,
          phone_number: HOSTILE,
          disclaimer: HOSTILE,
        }),
        APP,
      );
      expect(html).not.toContain('<script');
      expect(html).not.toContain('<img src=x');
      expect(html.split(ESCAPED).length - 1).toBe(8);
    });

    it('drops javascript: and other non-http URLs instead of linking them', () => {
      const html = renderSignature(
        template,
        settings({
          full_name: 'A',
          website_url: 'javascript:alert(1)',
          address: 'Home',
          address_url: 'data:text/html,<b>x</b>',
          image_url: 'javascript:alert(2)',
          email: 'x"@evil',
        }),
        APP,
      );
      expect(html).not.toMatch(/href="\s*(javascript|data):/i);
      expect(html).not.toContain('<img');
      expect(html).toContain('javascript:alert(1)'); // shown as text
      expect(html).not.toContain('mailto:');
    });

    it('uses tables and inline styles only, and absolute icon URLs on the app', () => {
      const html = renderSignature(
        template,
        settings({ full_name: 'Ada', github: 'ada', linkedin: 'ada-l', email: 'ada@example.com' }),
        `${APP}/`,
      );
      expect(html.startsWith('<table')).toBe(true);
      expect(html).not.toMatch(/<(style|link|script|div class)|class=/);
      expect(html).toContain(`src="${APP}/assets/social/github.png"`);
      expect(html).toContain('href="https://www.linkedin.com/in/ada-l"');
      expect(html).toContain('href="mailto:ada@example.com"');
      const images = html.match(/<img [^>]*src="([^"]+)"/g) ?? [];
      expect(images).toHaveLength(2);
      for (const img of images) {
        expect(img).toMatch(/src="https:\/\//);
      }
    });

    it('sets the direction on the outer table', () => {
      expect(renderSignature(template, settings({ direction: 'rtl' }), APP)).toMatch(
        /^<table [^>]*dir="rtl"/,
      );
    });

    it('shows the branding line unless it is removed', () => {
      expect(renderSignature(template, settings({}), APP)).toContain('Signature made with');
      expect(renderSignature(template, settings({ is_removed_branding: true }), APP)).not.toContain(
        'Signature made with',
      );
    });
  });

  it('renders three different layouts', () => {
    const s = settings({ full_name: 'Ada', company: 'X', email: 'a@b.co' });
    const htmls = new Set(SIGNATURE_TEMPLATES.map((t) => renderSignature(t, s, APP)));
    expect(htmls.size).toBe(3);
  });
});

describe(renderPreviewPage.name, () => {
  it('escapes the title and holds no script', () => {
    const page = renderPreviewPage(HOSTILE, '<table></table>');
    expect(page).toContain(`<title>${ESCAPED} - email signature</title>`);
    expect(page).not.toContain('<script');
  });
});

describe('escaping helpers', () => {
  it('escapes the five HTML characters and the backtick', () => {
    expect(escapeHtml(`&<>"'\``)).toBe('&amp;&lt;&gt;&quot;&#39;&#96;');
  });

  it.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['http://example.com', 'http://example.com/'],
    ['javascript:alert(1)', null],
    [' javascript:alert(1)', null],
    ['data:text/html,x', null],
    ['//example.com', null],
    ['', null],
  ])('safeHttpUrl(%j) is %j', (input, output) => {
    expect(safeHttpUrl(input)).toBe(output);
  });

  it('builds tel: and mailto: only from well-formed values', () => {
    expect(telHref('+44 (20) 7946-0000')).toBe('tel:+442079460000');
    expect(telHref('call me')).toBeNull();
    expect(mailtoHref('ada@example.com')).toBe('mailto:ada@example.com');
    expect(mailtoHref('"><x@y.z')).toBeNull();
  });

  it('fills settings missing from a stored row with defaults and ignores wrong types', () => {
    expect(withDefaults({ font_size: 'big' as unknown as number, full_name: 'A' })).toEqual(
      settings({ full_name: 'A' }),
    );
  });
});
