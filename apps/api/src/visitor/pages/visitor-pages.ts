import { markup, SafeHtml } from './html';

/*
 * The HTML pages the visitor side answers with: one layout, one stylesheet, every value escaped by
 * the `markup` tag. Responsive (a centered card that fills narrow screens), no external resource.
 */

/** The headers every visitor page shares. */
const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
};

/**
 * Headers of the plain pages (404, 405, 429, password, sensitive): no script, not framable. Their
 * forms post to the link itself, which answers 303 to itself and then redirects to the destination:
 * Chromium checks form-action along that whole redirect chain, so it must allow any http(s) URL.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON_HEADERS,
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; base-uri 'none'; frame-ancestors 'none'",
};

/** Headers of a page with its own Content-Security-Policy (the splash page). */
export function pageHeaders(csp: string): Record<string, string> {
  return { ...COMMON_HEADERS, 'Content-Security-Policy': csp };
}

const STYLE = new SafeHtml(`*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:1rem;padding:1rem;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f4f5f7;color:#1d2330}
main{background:#fff;max-width:28rem;width:100%;padding:2rem;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.08);overflow-wrap:anywhere}
h1{font-size:1.35rem;margin:0 0 .75rem}
main>:last-child{margin-bottom:0}
p{line-height:1.5;margin:0 0 1rem;color:#4a5163}
label{display:block;font-weight:600;margin-bottom:.4rem}
input[type=password]{width:100%;padding:.65rem;border:1px solid #c9ced8;border-radius:8px;font-size:1rem;margin-bottom:1rem}
button,.button{display:block;width:100%;padding:.7rem;border:0;border-radius:8px;background:#2f5bea;color:#fff;font:600 1rem system-ui,sans-serif;text-align:center;text-decoration:none;cursor:pointer}
.button+.button{margin-top:.6rem}
.button.secondary{background:#e8ebf2;color:#1d2330}
.button[aria-disabled=true]{background:#9aa3b5;cursor:not-allowed}
.error{color:#b42318;font-weight:600}
.logo{display:block;max-width:10rem;max-height:5rem;margin:0 auto 1.25rem}
.countdown{text-align:center;font-size:.95rem;min-height:1.5em}
.ads{max-width:48rem;width:100%;overflow:hidden;text-align:center}`);

export interface LayoutOptions {
  title: string;
  body: SafeHtml;
  /** Extra elements of <head> (meta tags, favicon, the splash page's own style). */
  head?: SafeHtml;
  /** Elements before and after <main> (ads, scripts). */
  before?: SafeHtml;
  after?: SafeHtml;
}

export function layout(o: LayoutOptions): string {
  return markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${o.title}</title>
<style>${STYLE}</style>
${o.head}
</head>
<body>
${o.before}
<main>
${o.body}
</main>
${o.after}
</body>
</html>
`.value;
}

/**
 * `GET /` of the main domain: what a browser pointed at the service finds, rather than the API's
 * JSON 404. The same for every request, so it is rendered once.
 */
const ROOT_PAGE = layout({
  title: 'Linkdock',
  body: markup`<h1>Linkdock</h1>
<p>This server runs Linkdock, a self-hosted link shortener. Its short links answer at <code>/{alias}</code>; everything else goes through its JSON API.</p>
<a class="button" href="/docs">API documentation</a>
<a class="button secondary" href="/v1/openapi.json">OpenAPI document</a>
<a class="button secondary" href="/health">Health</a>`,
});

export function rootPage(): string {
  return ROOT_PAGE;
}

/** A bio page asked for with a `slots_from` that is not an instant in milliseconds. */
export function badSlotsFromPage(alias: string): string {
  return layout({
    title: 'Bad address',
    body: markup`<h1>This address is not right</h1>
<p>slots_from must be a time in milliseconds since 1970, as the page's "Later times" links give it.</p>
<a class="button" href="/${alias}">See the first free times</a>`,
  });
}

export function notFoundPage(): string {
  return layout({
    title: 'Link not found',
    body: markup`<h1>Link not found</h1>
<p>This link does not exist, is no longer active, or is not active yet.</p>`,
  });
}

export function passwordPage(action: string, wrongPassword: boolean): string {
  return layout({
    title: 'Password required',
    body: markup`<h1>This link is protected</h1>
<p>Enter the password to continue.</p>
${wrongPassword && markup`<p class="error" role="alert">That password is not correct.</p>`}
<form method="post" action="${action}">
<input type="hidden" name="type" value="password">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Continue</button>
</form>`,
  });
}

export function sensitiveContentPage(action: string): string {
  return layout({
    title: 'Sensitive content',
    body: markup`<h1>Sensitive content ahead</h1>
<p>The destination of this link may contain content that is not suitable for everyone.</p>
<form method="post" action="${action}">
<input type="hidden" name="type" value="sensitive_content">
<button type="submit">I understand, continue</button>
</form>`,
  });
}

export function methodNotAllowedPage(): string {
  return layout({
    title: 'Method not allowed',
    body: markup`<h1>Method not allowed</h1>
<p>Open this link with GET.</p>`,
  });
}

export function tooManyAttemptsPage(): string {
  return layout({
    title: 'Too many attempts',
    body: markup`<h1>Too many attempts</h1>
<p>Wait a minute before trying the password again.</p>`,
  });
}
