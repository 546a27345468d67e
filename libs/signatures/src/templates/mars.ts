import {
  contacts,
  css,
  frame,
  fullName,
  photo,
  RenderContext,
  roleLines,
  signOff,
  socials,
  text,
} from '../parts';

/** Photo beside the text, a vertical rule in the theme colour between them. */
export function renderMars(ctx: RenderContext): string {
  const s = ctx.s;
  const side = s.direction === 'rtl' ? 'padding-left' : 'padding-right';
  const rule = s.direction === 'rtl' ? 'border-right' : 'border-left';
  const picture = photo(ctx);
  const contactLines = contacts(ctx)
    .map(
      (c) =>
        `<div ${text(ctx)}><span dir="ltr" ${css({ color: s.theme_color })}>${c.label}:</span> ${c.html}</div>`,
    )
    .join('');
  const details =
    fullName(ctx) +
    roleLines(ctx) +
    (contactLines ? `<div ${css({ 'padding-top': 6 })}>${contactLines}</div>` : '') +
    socials(ctx);
  const photoCell = picture
    ? `<td valign="top" width="${s.image_width}" ${css({ [side]: 12 })}>${picture}</td>`
    : '';
  const detailStyle = css({
    [rule]: s.separator_size > 0 ? `${s.separator_size}px solid ${s.theme_color}` : undefined,
    [s.direction === 'rtl' ? 'padding-right' : 'padding-left']:
      s.separator_size > 0 ? 12 : undefined,
  });
  const inner =
    `<table cellpadding="0" cellspacing="0" border="0" role="presentation" ${css({ 'border-collapse': 'collapse' })}>` +
    `<tr>${photoCell}<td valign="top" ${detailStyle}>${details}</td></tr></table>`;
  return frame(ctx, `<tr><td>${signOff(ctx)}${inner}</td></tr>`);
}
