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

/** A theme-coloured band on top, name and photo on one row, contacts in a two-column grid. */
export function renderSaturn(ctx: RenderContext): string {
  const s = ctx.s;
  const picture = photo(ctx);
  const band = `<tr><td height="${4 + s.separator_size}" ${css({ 'background-color': s.theme_color, 'font-size': 0, 'line-height': 0, height: 4 + s.separator_size })}>&nbsp;</td></tr>`;
  const head =
    `<table cellpadding="0" cellspacing="0" border="0" role="presentation" width="100%" ${css({ 'border-collapse': 'collapse' })}><tr>` +
    `<td valign="middle" ${css({ 'padding-top': 10, 'padding-bottom': 6 })}>${fullName(ctx, 5)}${roleLines(ctx)}</td>` +
    (picture
      ? `<td valign="middle" width="${s.image_width}" ${css({ 'padding-top': 10 })}>${picture}</td>`
      : '') +
    `</tr></table>`;
  const items = contacts(ctx);
  const grid: string[] = [];
  for (let i = 0; i < items.length; i += 2) {
    const cell = (c: (typeof items)[number] | undefined): string =>
      c
        ? `<td valign="top" width="50%" ${text(ctx, { 'padding-top': 2 })}><span ${css({ color: s.theme_color, 'font-weight': 'bold' })}>${c.label}</span><br>${c.html}</td>`
        : '<td width="50%">&nbsp;</td>';
    grid.push(`<tr>${cell(items[i])}${cell(items[i + 1])}</tr>`);
  }
  const contactTable = grid.length
    ? `<table cellpadding="0" cellspacing="0" border="0" role="presentation" width="100%" ${css({ 'border-collapse': 'collapse' })}>${grid.join('')}</table>`
    : '';
  const rows =
    (s.sign_off ? `<tr><td>${signOff(ctx)}</td></tr>` : '') +
    band +
    `<tr><td>${head}${contactTable}${socials(ctx)}</td></tr>`;
  return frame(ctx, rows);
}
