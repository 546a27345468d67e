import { escapeHtml } from '@app/common';
import { mailtoHref, safeHttpUrl, telHref } from './escape';
import { FONT_FAMILIES, SignatureSettings, SOCIAL_NETWORKS, SOCIAL_PROFILE_URL } from './settings';

/** What every template works from: validated settings and the app's public base URL. */
export interface RenderContext {
  s: SignatureSettings;
  appUrl: string;
}

/** `style="..."` from a map; values come from validated settings or constants and are escaped. */
export function css(rules: Record<string, string | number | undefined>): string {
  const body = Object.entries(rules)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}:${typeof v === 'number' ? `${v}px` : v}`)
    .join(';');
  return `style="${escapeHtml(body)}"`;
}

export function text(ctx: RenderContext, extra: Record<string, string | number> = {}): string {
  return css({
    'font-family': FONT_FAMILIES[ctx.s.font_family],
    'font-size': ctx.s.font_size,
    'line-height': '1.4',
    color: ctx.s.text_color,
    ...extra,
  });
}

/**
 * A link, underlined: told apart from the text around it by more than its colour (WCAG 1.4.1),
 * which a reader's link colour may not differ from enough. Contact values (numbers, addresses, handles) are always left-to-right: `dir="ltr"` keeps
 * `+44 20 7946 0000` or `ada@example.com` from being reordered inside a right-to-left signature.
 */
export function link(ctx: RenderContext, href: string, label: string, ltr = false): string {
  const dir = ltr ? ' dir="ltr"' : '';
  return `<a href="${escapeHtml(href)}"${dir} ${css({ color: ctx.s.link_color, 'text-decoration': 'underline' })}>${escapeHtml(label)}</a>`;
}

export function align(ctx: RenderContext): 'left' | 'right' {
  return ctx.s.direction === 'rtl' ? 'right' : 'left';
}

export function fullName(ctx: RenderContext, bump = 4): string {
  if (!ctx.s.full_name) {
    return '';
  }
  const style = text(ctx, {
    'font-size': ctx.s.font_size + bump,
    'font-weight': 'bold',
    color: ctx.s.full_name_color,
  });
  return `<div dir="auto" ${style}>${escapeHtml(ctx.s.full_name)}</div>`;
}

/** "Job title, Department" and the company, as lines of text. */
export function roleLines(ctx: RenderContext): string {
  const role = [ctx.s.job_title, ctx.s.department].filter(Boolean).join(', ');
  const lines: string[] = [];
  if (role) {
    lines.push(`<div dir="auto" ${text(ctx)}>${escapeHtml(role)}</div>`);
  }
  if (ctx.s.company) {
    lines.push(
      `<div dir="auto" ${text(ctx, { color: ctx.s.theme_color, 'font-weight': 'bold' })}>${escapeHtml(ctx.s.company)}</div>`,
    );
  }
  return lines.join('');
}

export function signOff(ctx: RenderContext): string {
  return ctx.s.sign_off
    ? `<div dir="auto" ${text(ctx, { 'font-style': 'italic', 'padding-bottom': 8 })}>${escapeHtml(ctx.s.sign_off)}</div>`
    : '';
}

interface Contact {
  label: string;
  html: string;
}

/** Each contact channel that is set, as a label and an escaped link (or plain text). */
export function contacts(ctx: RenderContext): Contact[] {
  const s = ctx.s;
  const out: Contact[] = [];
  const add = (label: string, href: string | null, shown: string): void => {
    out.push({
      label,
      html: href ? link(ctx, href, shown, true) : `<span dir="auto">${escapeHtml(shown)}</span>`,
    });
  };
  if (s.phone_number) add('Phone', telHref(s.phone_number), s.phone_number);
  if (s.email) add('Email', mailtoHref(s.email), s.email);
  if (s.website_url) add('Web', safeHttpUrl(s.website_url), displayUrl(s.website_url));
  if (s.address) add('Address', safeHttpUrl(s.address_url), s.address);
  if (s.whatsapp) add('WhatsApp', `https://wa.me/${s.whatsapp.replace(/\D/g, '')}`, s.whatsapp);
  if (s.telegram)
    add('Telegram', `https://t.me/${encodeURIComponent(s.telegram)}`, `@${s.telegram}`);
  if (s.facebook_messenger) {
    add(
      'Messenger',
      `https://m.me/${encodeURIComponent(s.facebook_messenger)}`,
      s.facebook_messenger,
    );
  }
  return out;
}

function displayUrl(url: string): string {
  return url.replace(/^https?:\/\//, '').replace(/\/$/, '');
}

/** One row of social icons (small PNGs served by the app), or '' when no handle is set. */
export function socials(ctx: RenderContext, center = false): string {
  const s = ctx.s;
  const side = s.direction === 'rtl' ? 'padding-left' : 'padding-right';
  const cells = SOCIAL_NETWORKS.filter((n) => s[n]).map((network) => {
    const href = SOCIAL_PROFILE_URL[network](encodeURIComponent(s[network]));
    const src = `${ctx.appUrl}/assets/social/${network}.png`;
    const img = `<img src="${escapeHtml(src)}" width="${s.socials_width}" height="${s.socials_width}" alt="${network}" ${css({ display: 'block', border: '0' })}>`;
    return `<td ${css({ [side]: s.socials_padding })}><a href="${escapeHtml(href)}">${img}</a></td>`;
  });
  if (cells.length === 0) {
    return '';
  }
  const attrs = center ? ' align="center"' : '';
  return `<table cellpadding="0" cellspacing="0" border="0" role="presentation"${attrs} ${css({ 'border-collapse': 'collapse', 'margin-top': 8 })}><tr>${cells.join('')}</tr></table>`;
}

export function photo(ctx: RenderContext, round = false): string {
  const src = safeHttpUrl(ctx.s.image_url);
  if (!src) {
    return '';
  }
  const w = ctx.s.image_width;
  const style = css({ display: 'block', border: '0', 'border-radius': round ? '50%' : '4px' });
  return `<img src="${escapeHtml(src)}" width="${w}" height="${w}" alt="" ${style}>`;
}

/** Disclaimer and the "made with" line, below the signature. */
export function footer(ctx: RenderContext): string {
  const parts: string[] = [];
  const small = text(ctx, { 'font-size': Math.max(10, ctx.s.font_size - 3), color: '#6b7280' });
  if (ctx.s.disclaimer) {
    parts.push(
      `<tr><td ${css({ 'padding-top': 12 })}><div dir="auto" ${small}>${escapeHtml(ctx.s.disclaimer)}</div></td></tr>`,
    );
  }
  if (!ctx.s.is_removed_branding) {
    parts.push(
      `<tr><td ${css({ 'padding-top': 8 })}><div ${small}>Signature made with ${link(ctx, `${ctx.appUrl}/`, 'Linkdock')}</div></td></tr>`,
    );
  }
  return parts.join('');
}

/** The outer table every template is wrapped in: width, direction, alignment. */
export function frame(ctx: RenderContext, rows: string): string {
  const s = ctx.s;
  return (
    `<table cellpadding="0" cellspacing="0" border="0" role="presentation" dir="${s.direction}" width="${s.width}" ` +
    `${css({ 'border-collapse': 'collapse', width: s.width, 'max-width': '100%', 'text-align': align(ctx) })}>` +
    `${rows}${footer(ctx)}</table>`
  );
}
