import { randomBytes } from 'node:crypto';
import { SPLASH_DEFAULT_COLOR, SplashPageEntity, SPLASH_UPLOADS_PATH } from '@app/database';
import { markup, raw } from './html';
import { layout, pageHeaders } from './visitor-pages';

/** A splash page compiled for the visitor side (cached with the links that show it). */
export interface VisitorSplash {
  /** The page's title, or its name when it has none. */
  title: string;
  description: string | null;
  logoUrl: string | null;
  faviconUrl: string | null;
  opengraphUrl: string | null;
  secondaryButtonName: string | null;
  secondaryButtonUrl: string | null;
  customCss: string | null;
  customJs: string | null;
  adsHeader: string | null;
  adsFooter: string | null;
  unlockSeconds: number;
  autoRedirect: boolean;
  /** `#rrggbb`: the continue button's background. */
  color: string;
}

const HEX_COLOR = /^#[0-9a-f]{6}$/i;

export function compileSplash(page: SplashPageEntity, appUrl: string): VisitorSplash {
  const url = (name: string | null): string | null =>
    name === null ? null : `${appUrl}/${SPLASH_UPLOADS_PATH}/${name}`;
  const s = page.settings;
  return {
    title: page.title || page.name,
    description: page.description,
    logoUrl: url(page.logo),
    faviconUrl: url(page.favicon),
    opengraphUrl: url(page.opengraph),
    secondaryButtonName: s.secondary_button_name,
    secondaryButtonUrl: s.secondary_button_url,
    customCss: s.custom_css,
    customJs: s.custom_js,
    adsHeader: s.ads_header,
    adsFooter: s.ads_footer,
    unlockSeconds: page.link_unlock_seconds,
    autoRedirect: page.auto_redirect,
    // Validated on the way in; checked again because it is written into a stylesheet.
    color: HEX_COLOR.test(page.color) ? page.color.toLowerCase() : SPLASH_DEFAULT_COLOR,
  };
}

const DARK_TEXT = '#1d2330';

/** WCAG relative luminance of a `#rrggbb` colour. */
function luminance(color: string): number {
  const channel = (i: number): number => {
    const c = parseInt(color.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The buttons in the page colour, with white or dark text, whichever contrasts more. */
function accentStyle(color: string): string {
  const l = luminance(color) + 0.05;
  const text = 1.05 / l >= l / (luminance(DARK_TEXT) + 0.05) ? '#fff' : DARK_TEXT;
  return `.button{background:${color};color:${text}}`;
}

/**
 * The countdown: locks the continue button (the server sends it usable, so that it works without
 * JavaScript), counts down, then unlocks it or, with auto-redirect, follows it.
 */
const COUNTDOWN = `(function(){
var b=document.getElementById('continue'),c=document.getElementById('countdown');
var left=Number(b.getAttribute('data-seconds')),auto=b.getAttribute('data-auto')==='1',href=b.getAttribute('href');
function open(){b.setAttribute('href',href);b.removeAttribute('aria-disabled');b.textContent='Continue';
if(c)c.textContent=auto?'Redirecting\\u2026':'';if(auto)location.replace(href);}
function tick(){if(left<=0){open();return;}
if(c)c.textContent=(auto?'Redirecting in ':'You can continue in ')+left+(left===1?' second':' seconds');left-=1;setTimeout(tick,1000);}
if(left>0){b.removeAttribute('href');b.setAttribute('aria-disabled','true');b.textContent='Please wait\\u2026';}
tick();})();`;

/**
 * User code inside <style>/<script> must not close its own element early: `</style` and `</script`
 * become `<\\/style`, `<\\/script` (the same text to the CSS and JS parsers).
 */
function inElement(code: string, tag: 'style' | 'script'): string {
  const closed = code.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1');
  return tag === 'script' ? closed.replace(/<!--/g, '<\\!--') : closed;
}

/**
 * Every splash page is sandboxed without `allow-same-origin`: it runs with an opaque origin, so
 * no script on it (its owner's custom JS and ads included) can read the cookies or storage of
 * APP_URL or make a credentialed same-origin request, where other users' links, password-gated
 * pages and static sites live. Scripts, popups (which escape the sandbox, for ads), forms and the
 * page's own navigation (continue button, auto-redirect, meta refresh) still work; a Set-Cookie
 * on the page's response (the static-site splash cookie) is still stored.
 */
const SANDBOX = 'sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox allow-forms';

/**
 * The Content-Security-Policy of a splash page. Without custom JS or ads it runs only our
 * countdown (by nonce) and loads only its own images (plus https stylesheets, images and fonts
 * when custom CSS asks for them, e.g. `@import` of a web font). With custom JS or ads, which
 * commonly load third-party scripts, frames and inline snippets without our nonce, it allows
 * inline and https: scripts, frames and connections: the page owner chose to run that code on
 * their own page, inside the sandbox; every other value stays escaped.
 */
export function splashPolicy(splash: VisitorSplash, nonce: string, appOrigin: string): string {
  const thirdParty = Boolean(splash.customJs || splash.adsHeader || splash.adsFooter);
  const external = thirdParty || Boolean(splash.customCss);
  const directives = [
    "default-src 'none'",
    thirdParty ? "script-src 'unsafe-inline' https:" : `script-src 'nonce-${nonce}'`,
    external ? "style-src 'unsafe-inline' https:" : "style-src 'unsafe-inline'",
    `img-src ${appOrigin} data:${external ? ' https:' : ''}`,
    external && 'font-src https: data:',
    thirdParty && 'connect-src https:',
    thirdParty && 'frame-src https:',
    thirdParty && 'media-src https:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    SANDBOX,
  ];
  return directives.filter(Boolean).join('; ');
}

export interface RenderedSplash {
  html: string;
  headers: Record<string, string>;
}

/** The splash page in front of `destination`; `appOrigin` serves the uploaded images. */
export function splashPage(
  splash: VisitorSplash,
  destination: string,
  appOrigin: string,
): RenderedSplash {
  const nonce = randomBytes(16).toString('base64');
  const s = splash;
  const refresh = `${s.unlockSeconds};url=${destination}`;
  const head = markup`<meta name="description" content="${s.description ?? ''}">
<meta property="og:type" content="website">
<meta property="og:title" content="${s.title}">
${s.description && markup`<meta property="og:description" content="${s.description}">`}
${s.opengraphUrl && markup`<meta property="og:image" content="${s.opengraphUrl}">`}
${s.opengraphUrl && markup`<meta name="twitter:card" content="summary_large_image">`}
${s.faviconUrl && markup`<link rel="icon" href="${s.faviconUrl}">`}
${s.autoRedirect && markup`<noscript><meta http-equiv="refresh" content="${refresh}"></noscript>`}
<style>${accentStyle(s.color)}</style>
${s.customCss && markup`<style>${raw(inElement(s.customCss, 'style'))}</style>`}`;
  const secondary =
    s.secondaryButtonUrl &&
    markup`<a id="secondary" class="button secondary" href="${s.secondaryButtonUrl}" rel="noopener noreferrer">${s.secondaryButtonName || 'Learn more'}</a>`;
  const body = markup`${s.logoUrl && markup`<img class="logo" src="${s.logoUrl}" alt="">`}
<h1>${s.title}</h1>
${s.description && markup`<p class="description">${s.description}</p>`}
${s.unlockSeconds > 0 && markup`<p id="countdown" class="countdown" aria-live="polite"></p>`}
<a id="continue" class="button" href="${destination}" rel="noopener noreferrer" data-seconds="${s.unlockSeconds}" data-auto="${s.autoRedirect ? 1 : 0}">Continue</a>
${secondary}`;
  const after = markup`${s.adsFooter && markup`<div class="ads ads-footer">${raw(s.adsFooter)}</div>`}
<script nonce="${nonce}">${raw(COUNTDOWN)}</script>
${s.customJs && markup`<script>${raw(inElement(s.customJs, 'script'))}</script>`}`;
  return {
    html: layout({
      title: s.title,
      head,
      body,
      before: s.adsHeader
        ? markup`<div class="ads ads-header">${raw(s.adsHeader)}</div>`
        : undefined,
      after,
    }),
    headers: pageHeaders(splashPolicy(s, nonce, appOrigin)),
  };
}
