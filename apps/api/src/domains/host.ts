import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const MAX_HOST = 253;

/**
 * What a person pastes into `host` becomes the bare, lower-case, ASCII host name: surrounding
 * white space, a scheme, a path/query/fragment and trailing dots go; IDNs become punycode. A port
 * or anything else that is not a host is kept, so that validation names it.
 */
export function normaliseHost(raw: string): string {
  let host = raw.trim().toLowerCase();
  host = host.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  host = host.replace(/[/?#].*$/, '');
  host = host.replace(/\.+$/, '');
  if (host === '' || /[:[\]@\s]/.test(host) || isIP(host) !== 0) {
    return host;
  }
  const ascii = domainToASCII(host);
  return ascii === '' ? host : ascii.replace(/\.+$/, '');
}

/** Why a normalised host cannot be a custom domain, as the end of a sentence, or null when it can. */
export function hostProblem(host: string): string | null {
  if (host === '') {
    return 'is required';
  }
  if (isIP(host) !== 0 || /^\[.*\]/.test(host)) {
    return 'must be a domain name, not an IP address';
  }
  if (host.includes('@')) {
    return 'must be a domain name such as links.example.com, without a user name';
  }
  if (host.includes(':')) {
    return 'must be a domain name without a port';
  }
  if (host.length > MAX_HOST) {
    return `must be at most ${MAX_HOST} characters long`;
  }
  const labels = host.split('.');
  if (labels.length < 2) {
    return 'must have at least two labels, such as links.example.com';
  }
  if (!labels.every((label) => LABEL.test(label))) {
    return 'must be a domain name whose labels are 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen';
  }
  if (/^\d+$/.test(labels[labels.length - 1])) {
    return 'must be a domain name, not an IP address';
  }
  if (labels[labels.length - 1] === 'localhost') {
    return 'must not be localhost';
  }
  return null;
}

export { verificationName, verificationValue } from '@app/common';
