import { escapeHtml } from '@app/common';

/* The few HTML pages the visitor edge answers with. Every interpolated value is escaped. */

/** Headers of every visitor page: no scripts at all, not framable, never cached. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
};

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f4f5f7;color:#1d2330}
main{background:#fff;max-width:26rem;width:calc(100% - 2rem);padding:2rem;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.08)}
h1{font-size:1.35rem;margin:0 0 .75rem}
p{line-height:1.5;margin:0 0 1rem;color:#4a5163}
label{display:block;font-weight:600;margin-bottom:.4rem}
input[type=password]{box-sizing:border-box;width:100%;padding:.65rem;border:1px solid #c9ced8;border-radius:8px;font-size:1rem;margin-bottom:1rem}
button{width:100%;padding:.7rem;border:0;border-radius:8px;background:#2f5bea;color:#fff;font-size:1rem;font-weight:600;cursor:pointer}
.error{color:#b42318;font-weight:600}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export function notFoundPage(): string {
  return layout(
    'Link not found',
    `<h1>Link not found</h1>
<p>This link does not exist, is no longer active, or is not active yet.</p>`,
  );
}

export function passwordPage(action: string, wrongPassword: boolean): string {
  return layout(
    'Password required',
    `<h1>This link is protected</h1>
<p>Enter the password to continue.</p>
${wrongPassword ? '<p class="error" role="alert">That password is not correct.</p>' : ''}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="type" value="password">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Continue</button>
</form>`,
  );
}

export function sensitiveContentPage(action: string): string {
  return layout(
    'Sensitive content',
    `<h1>Sensitive content ahead</h1>
<p>The destination of this link may contain content that is not suitable for everyone.</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="type" value="sensitive_content">
<button type="submit">I understand, continue</button>
</form>`,
  );
}

export function methodNotAllowedPage(): string {
  return layout('Method not allowed', '<h1>Method not allowed</h1><p>Open this link with GET.</p>');
}

export function tooManyAttemptsPage(): string {
  return layout(
    'Too many attempts',
    '<h1>Too many attempts</h1><p>Wait a minute before trying the password again.</p>',
  );
}
