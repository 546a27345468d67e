import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy, ValidationArguments } from 'class-validator';

/**
 * The one http(s) URL rule: `normalizeHttpUrl` (what is a URL, and its stored form),
 * `hasUrlCredentials` (refused on new writes), `readHttpUrl` (both, with a length limit, for code
 * that collects problems itself) and the `@IsHttpUrl()` decorator. This file imports nothing of
 * ours, so that libs/config can read it (`@app/common/validation/http-url`) although libs/common
 * reads libs/config.
 */

/** C0 control characters and DEL: a URL parser drops some of them silently, so they are refused. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The `URL.href` of an absolute http(s) URL with a host (surrounding white space ignored), or null.
 * `https:host` and `https:/host` parse as https://host/ on their own, but a browser reads them
 * relative to the page they are on (a path on our own host): only the full form is a URL here.
 */
export function normalizeHttpUrl(value: string): string | null {
  const text = value.trim();
  if (!/^https?:[/\\]{2}/i.test(text) || CONTROL.test(text) || !text.isWellFormed()) {
    return null;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
    ? url.href
    : null;
}

/**
 * Whether a URL (a `normalizeHttpUrl` result) has a user name or password. `https://paypal.com@
 * evil.example/` goes to evil.example but reads as paypal.com: a phishing disguise, so new URLs
 * may not have them. Rows stored before this rule are still read and served: `normalizeHttpUrl`
 * keeps parsing them.
 */
export function hasUrlCredentials(href: string): boolean {
  const url = new URL(href);
  return url.username !== '' || url.password !== '';
}

/** An http(s) URL that a new write may store: see `normalizeHttpUrl` and `hasUrlCredentials`. */
export function isHttpUrl(value: string): boolean {
  const href = normalizeHttpUrl(value);
  return href !== null && !hasUrlCredentials(href);
}

/** What `readHttpUrl` found: the stored form, or why the value is refused. */
export type HttpUrlReading = { ok: true; href: string } | { ok: false; credentials: boolean };

/**
 * A value that a new write may store as an http(s) URL, in its stored form (`normalizeHttpUrl`) of
 * at most `maxLength` characters; refused with `credentials: true` when only its user name or
 * password is at fault (answer that with `urlCredentialsMessage`).
 */
export function readHttpUrl(value: string, maxLength = 2048): HttpUrlReading {
  const href = normalizeHttpUrl(value);
  if (href === null) {
    return { ok: false, credentials: false };
  }
  if (hasUrlCredentials(href)) {
    return { ok: false, credentials: true };
  }
  return href.length <= maxLength ? { ok: true, href } : { ok: false, credentials: false };
}

/**
 * An absolute http(s) URL with a host, stored as a browser resolves it: WHATWG `URL.href`, so the
 * host is lower-case punycode (`bücher.example` is `xn--bcher-kva.example`, a fullwidth dot is a
 * dot), the path, query and fragment are percent-encoded, and `a/../b` is `b`. That form is plain
 * ASCII, so it can always be sent in a `Location` header. The length limit applies to it. A URL
 * with credentials is refused (see `hasUrlCredentials`).
 */
export function IsHttpUrl(maxLength = 2048): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? (normalizeHttpUrl(value) ?? value.trim()) : value,
    ),
    NoUrlCredentials(),
    ValidateBy({
      name: 'isHttpUrl',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          value.length <= maxLength &&
          normalizeHttpUrl(value) !== null,
        defaultMessage: ({ property }: ValidationArguments) =>
          `${property} must be an http:// or https:// URL with a host, at most ${maxLength} characters`,
      },
    }),
  );
}

/** The title of a URL refused for its credentials, naming the field. */
export function urlCredentialsMessage(field: string): string {
  return `${field} must not carry a user name or password (user:password@ before the host), which browsers show like part of the address.`;
}

/**
 * Refuses an http(s) URL with credentials, with its own message; anything that is no URL passes
 * here (the URL rule beside it says so). Written above that rule: a URL with credentials fails
 * only this one.
 */
export function NoUrlCredentials(): PropertyDecorator {
  return ValidateBy({
    name: 'noUrlCredentials',
    validator: {
      validate: (value: unknown) => {
        const href = typeof value === 'string' ? normalizeHttpUrl(value) : null;
        return href === null || !hasUrlCredentials(href);
      },
      defaultMessage: ({ property }: ValidationArguments) => urlCredentialsMessage(property),
    },
  });
}
