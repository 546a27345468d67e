import { isEmailAddress, normalizeHttpUrl } from '@app/common';

/**
 * The URL if it is an absolute http(s) address, else null. Everything rendered as an href or src
 * goes through this (or builds a mailto:/tel: itself), so `javascript:` and friends never reach
 * the page even if a stored value slipped past validation.
 */
export function safeHttpUrl(value: string): string | null {
  if (value === '') {
    return null;
  }
  return normalizeHttpUrl(value);
}

/** `tel:` target made of the digits (and a leading +) of a phone number. */
export function telHref(phone: string): string | null {
  const digits = phone.replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');
  return /^\+?\d{3,20}$/.test(digits) ? `tel:${digits}` : null;
}

export function mailtoHref(email: string): string | null {
  return isEmailAddress(email) ? `mailto:${encodeURIComponent(email).replace('%40', '@')}` : null;
}
