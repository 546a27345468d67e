import { SplashPageEntity } from '@app/database';
import { compileSplash, VisitorSplash, splashPage, splashPolicy } from './splash-page';

const APP = 'https://links.example.com';
const SANDBOX = 'sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox allow-forms';

function splash(overrides: Partial<VisitorSplash> = {}): VisitorSplash {
  return {
    title: 'Welcome',
    description: null,
    logoUrl: null,
    faviconUrl: null,
    opengraphUrl: null,
    secondaryButtonName: null,
    secondaryButtonUrl: null,
    customCss: null,
    customJs: null,
    adsHeader: null,
    adsFooter: null,
    unlockSeconds: 5,
    autoRedirect: false,
    color: '#2f5bea',
    ...overrides,
  };
}

describe(compileSplash.name, () => {
  it('falls back to the name without a title and builds absolute image URLs', () => {
    const page = Object.assign(new SplashPageEntity(), {
      id: 1,
      user_id: 2,
      name: 'Internal name',
      title: null,
      description: 'Hello',
      link_unlock_seconds: 0,
      auto_redirect: true,
      color: '#0a7f3f',
      settings: {
        secondary_button_name: 'Shop',
        secondary_button_url: 'https://shop.example.com/',
        custom_css: null,
        custom_js: 'x()',
        ads_header: null,
        ads_footer: '<b>ad</b>',
      },
      logo: `${'a'.repeat(40)}.png`,
      favicon: null,
      opengraph: null,
    });
    expect(compileSplash(page, APP)).toEqual(
      splash({
        title: 'Internal name',
        description: 'Hello',
        logoUrl: `${APP}/uploads/splash-pages/${'a'.repeat(40)}.png`,
        secondaryButtonName: 'Shop',
        secondaryButtonUrl: 'https://shop.example.com/',
        customJs: 'x()',
        adsFooter: '<b>ad</b>',
        unlockSeconds: 0,
        autoRedirect: true,
        color: '#0a7f3f',
      }),
    );
  });

  it('falls back to the default accent colour when the stored one is not #rrggbb', () => {
    const page = Object.assign(new SplashPageEntity(), {
      name: 'n',
      title: null,
      color: 'red;}body{display:none',
      settings: {},
      logo: null,
      favicon: null,
      opengraph: null,
    });
    expect(compileSplash(page, APP).color).toBe('#2f5bea');
  });
});

describe(splashPolicy.name, () => {
  it('runs only the nonce script and loads only its own images on a plain page, sandboxed', () => {
    expect(splashPolicy(splash(), 'N0nce', APP)).toBe(
      `default-src 'none'; script-src 'nonce-N0nce'; style-src 'unsafe-inline'; img-src ${APP} data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; ${SANDBOX}`,
    );
  });

  it('lets custom CSS import https stylesheets and load https images and fonts, still without foreign scripts', () => {
    expect(splashPolicy(splash({ customCss: 'a{}' }), 'N', APP)).toBe(
      `default-src 'none'; script-src 'nonce-N'; style-src 'unsafe-inline' https:; img-src ${APP} data: https:; font-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; ${SANDBOX}`,
    );
  });

  it.each([{ customJs: 'x()' }, { adsHeader: '<i>' }, { adsFooter: '<i>' }])(
    'opens inline and https scripts, frames and connections for %o, in a sandbox without the service origin',
    (overrides) => {
      const policy = splashPolicy(splash(overrides), 'N', APP);
      expect(policy).toBe(
        `default-src 'none'; script-src 'unsafe-inline' https:; style-src 'unsafe-inline' https:; img-src ${APP} data: https:; font-src https: data:; connect-src https:; frame-src https:; media-src https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; ${SANDBOX}`,
      );
      expect(policy).not.toContain('allow-same-origin');
    },
  );
});

describe(splashPage.name, () => {
  it('escapes every value, including the destination in the button and the refresh', () => {
    const { html } = splashPage(
      splash({
        title: '"><script>alert(1)</script>',
        description: '<b>bold</b>',
        secondaryButtonName: '<i>',
        secondaryButtonUrl: 'https://e.com/?a="b"',
        autoRedirect: true,
        unlockSeconds: 2,
      }),
      'https://dest.example.com/?q="x"&y=<z>',
      APP,
    );
    expect(html).not.toMatch(/<script>alert|<b>bold|<i>/);
    expect(html).toContain('<h1>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(html).toContain(
      'href="https://dest.example.com/?q=&quot;x&quot;&amp;y=&lt;z&gt;" rel="noopener noreferrer" data-seconds="2" data-auto="1"',
    );
    expect(html).toContain(
      '<noscript><meta http-equiv="refresh" content="2;url=https://dest.example.com/?q=&quot;x&quot;&amp;y=&lt;z&gt;"></noscript>',
    );
    expect(html).toContain('>&lt;i&gt;</a>');
  });

  it('keeps user CSS and JS inside their own element', () => {
    const { html } = splashPage(
      splash({ customCss: 'a{}</STYLE><script>1</script>', customJs: 'a="</script><!--"' }),
      'https://dest.example.com/',
      APP,
    );
    expect(html).toContain('<style>a{}<\\/STYLE><script>1</script></style>');
    expect(html).toContain('<script>a="<\\/script><\\!--"</script>');
  });

  it('paints the continue button in the page colour, with readable text on a light one', () => {
    const dark = splashPage(splash({ color: '#0a7f3f' }), 'https://d.example/', APP).html;
    expect(dark).toContain('<style>.button{background:#0a7f3f;color:#fff}</style>');
    const light = splashPage(splash({ color: '#ffd60a' }), 'https://d.example/', APP).html;
    expect(light).toContain('<style>.button{background:#ffd60a;color:#1d2330}</style>');
    const css = splashPage(splash({ customCss: 'a{}' }), 'https://d.example/', APP).html;
    expect(css.indexOf('.button{background:#2f5bea')).toBeLessThan(css.indexOf('<style>a{}'));
  });

  it('leaves out the countdown line when there is nothing to wait for', () => {
    expect(splashPage(splash({ unlockSeconds: 0 }), 'https://d.example/', APP).html).not.toContain(
      'id="countdown"',
    );
    expect(splashPage(splash(), 'https://d.example/', APP).html).toContain('id="countdown"');
  });

  it('uses a fresh nonce per page, the same in the header and the script', () => {
    const a = splashPage(splash(), 'https://d.example/', APP);
    const b = splashPage(splash(), 'https://d.example/', APP);
    const nonce = /<script nonce="([^"]+)">/.exec(a.html)?.[1];
    expect(a.headers['Content-Security-Policy']).toContain(`'nonce-${nonce}'`);
    expect(b.headers['Content-Security-Policy']).not.toContain(`'nonce-${nonce}'`);
    expect(a.headers).toMatchObject({
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });
  });
});
