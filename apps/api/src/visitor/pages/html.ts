import { escapeHtml } from '@app/common';

/** Markup that is already safe: the output of `markup` or a deliberate `raw()`. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Marks a string as markup. Only the splash page's own CSS, JS and ads go through this. */
export function raw(value: string): SafeHtml {
  return new SafeHtml(value);
}

/**
 * A template tag that escapes every interpolated value unless it is SafeHtml. Arrays are joined;
 * null, undefined and false render nothing. Escaping is the default, so forgetting is safe. (Not
 * named `html`: Prettier would reformat the templates, whitespace of raw CSS and JS included.)
 */
export function markup(strings: TemplateStringsArray, ...values: MarkupValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i += 1) {
    out += render(values[i]) + strings[i + 1];
  }
  return new SafeHtml(out);
}

/** What a template may interpolate: text, numbers, nested markup, lists, or nothing. */
export type MarkupValue = SafeHtml | string | number | null | undefined | false | MarkupValue[];

function render(value: MarkupValue): string {
  if (value instanceof SafeHtml) {
    return value.value;
  }
  if (Array.isArray(value)) {
    return value.map(render).join('');
  }
  if (value === null || value === undefined || value === false) {
    return '';
  }
  return escapeHtml(String(value));
}
