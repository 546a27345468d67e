import { escapeHtml } from '@app/common';
import { RenderContext } from './parts';
import { SignatureSettings, SignatureTemplate } from './settings';
import { renderMars } from './templates/mars';
import { renderSaturn } from './templates/saturn';
import { renderVenus } from './templates/venus';

const TEMPLATES: Record<SignatureTemplate, (ctx: RenderContext) => string> = {
  mars: renderMars,
  venus: renderVenus,
  saturn: renderSaturn,
};

/**
 * The signature as an HTML fragment for an email client: tables for layout, inline styles only,
 * no scripts or external CSS, images by absolute URL, every value escaped.
 */
export function renderSignature(
  template: SignatureTemplate,
  settings: SignatureSettings,
  appUrl: string,
): string {
  return TEMPLATES[template]({ s: settings, appUrl: appUrl.replace(/\/+$/, '') });
}

/** A standalone page around the fragment, for the public preview link (opened and copied). */
export function renderPreviewPage(name: string, signatureHtml: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    `<title>${escapeHtml(name)} - email signature</title></head>`,
    '<body style="margin:0;padding:24px;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif">',
    // A main landmark and a heading: what screen-reader users jump to first.
    '<main>',
    `<h1 style="margin:0 0 8px;color:#111827;font-size:18px">${escapeHtml(name)}</h1>`,
    '<p style="margin:0 0 16px;color:#4b5563;font-size:13px">Select the signature below, copy it and paste it into the signature settings of your email client.</p>',
    '<div id="signature" style="background:#ffffff;padding:16px;display:inline-block">',
    signatureHtml,
    '</div></main></body></html>',
  ].join('\n');
}
