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

/** Everything centred in one column: round photo, name, a horizontal rule, contacts on one line. */
export function renderVenus(ctx: RenderContext): string {
  const s = ctx.s;
  const picture = photo(ctx, true);
  const rule =
    s.separator_size > 0
      ? `<tr><td align="center" ${css({ 'padding-top': 8, 'padding-bottom': 8 })}><table cellpadding="0" cellspacing="0" border="0" role="presentation" width="60%"><tr><td height="${s.separator_size}" ${css({ 'background-color': s.theme_color, 'font-size': 0, 'line-height': 0, height: s.separator_size })}>&nbsp;</td></tr></table></td></tr>`
      : '';
  // Each contact stays on one line, so a wrapped address is not split around its neighbours.
  const line = contacts(ctx)
    .map((c) => `<span ${css({ 'white-space': 'nowrap' })}>${c.html}</span>`)
    .join(` <span ${css({ color: s.theme_color })}>&#183;</span> `);
  const rows =
    (s.sign_off ? `<tr><td align="center">${signOff(ctx)}</td></tr>` : '') +
    (picture ? `<tr><td align="center" ${css({ 'padding-bottom': 8 })}>${picture}</td></tr>` : '') +
    `<tr><td align="center" ${css({ 'text-align': 'center' })}>${fullName(ctx, 6)}${roleLines(ctx)}</td></tr>` +
    rule +
    (line
      ? `<tr><td align="center" ${text(ctx, { 'text-align': 'center' })}>${line}</td></tr>`
      : '') +
    `<tr><td align="center">${socials(ctx, true)}</td></tr>`;
  return frame(ctx, rows);
}
