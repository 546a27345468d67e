/** How a link reaches its visitors: stored as JSON in `links.settings`. */
export const REDIRECT_STATUS_CODES = [301, 302, 307, 308] as const;
export type RedirectStatusCode = (typeof REDIRECT_STATUS_CODES)[number];

export const TARGETING_TYPES = [
  'country_code',
  'continent_code',
  'device_type',
  'os_name',
  'browser_name',
  'browser_language',
  'rotation',
] as const;
export type TargetingType = (typeof TARGETING_TYPES)[number];

/** For `rotation` the key is an integer weight; otherwise the visitor attribute to match. */
export interface TargetingRule {
  key: string;
  value: string;
}

export interface LinkSettings {
  http_status_code: RedirectStatusCode;
  sensitive_content: boolean;
  schedule: boolean;
  clicks_limit: number | null;
  expiration_url: string | null;
  forward_query_parameters_is_enabled: boolean;
  utm: { source: string | null; medium: string | null; campaign: string | null };
  targeting_type: TargetingType | null;
  targeting: TargetingRule[];
  /** walink only. */
  phone_number?: string;
  message?: string | null;
  /** static only: the site's display name. */
  name?: string;
  /** static only: where the published version of the site is stored. */
  static_site?: StaticSiteSettings;
  /** biolink only: the page's look and its search-engine fields. */
  biolink?: BiolinkPageSettings;
}

/** Where avatars and image blocks of bio pages are stored, under DATA_DIR and served there. */
export const BIOLINK_UPLOADS_PATH = 'uploads/biolinks';

/** Where link-preview images are stored and served (`/uploads/previews/<name>.jpg`). */
export const PREVIEW_UPLOADS_PATH = 'uploads/previews';
export const BIOLINK_FONTS = ['system', 'serif', 'monospace', 'rounded'] as const;
export type BiolinkFont = (typeof BIOLINK_FONTS)[number];

/** The page settings of a bio page (links of type `biolink`). */
export interface BiolinkPageSettings {
  title: string | null;
  description: string | null;
  /** The stored file name of the avatar under BIOLINK_UPLOADS_PATH, or null. */
  avatar: string | null;
  background_color: string;
  /** The second colour of a top-to-bottom gradient; null for a solid background. */
  background_color_two: string | null;
  text_color: string;
  button_color: string;
  button_text_color: string;
  font: BiolinkFont;
  seo_title: string | null;
  seo_description: string | null;
  seo_noindex: boolean;
}

export function defaultBiolinkSettings(): BiolinkPageSettings {
  return {
    title: null,
    description: null,
    avatar: null,
    background_color: '#f4f4f5',
    background_color_two: null,
    text_color: '#18181b',
    button_color: '#18181b',
    button_text_color: '#ffffff',
    font: 'system',
    seo_title: null,
    seo_description: null,
    seo_noindex: false,
  };
}

/**
 * The published version of a static site. Replacing the site rewrites this object in one UPDATE,
 * which is the moment visitors switch from the old version to the new one.
 */
export interface StaticSiteSettings {
  /** `html` (one uploaded page, stored as index.html) or `zip` (an unpacked archive). */
  mode: 'html' | 'zip';
  /** Storage id of the site; stays the same across versions. */
  folder: string;
  /** Storage id of the published version. */
  version: string;
  files: string[];
  bytes: number;
}

export function defaultLinkSettings(): LinkSettings {
  return {
    http_status_code: 302,
    sensitive_content: false,
    schedule: false,
    clicks_limit: null,
    expiration_url: null,
    forward_query_parameters_is_enabled: false,
    utm: { source: null, medium: null, campaign: null },
    targeting_type: null,
    targeting: [],
  };
}

/**
 * Reads stored settings, filling keys that older rows may lack. A redirect status outside the
 * allowed list (a null stored before the API refused it) reads as the default: the visitor edge
 * writes it into a status line, where anything else would throw.
 */
export function parseLinkSettings(json: string): LinkSettings {
  const stored = JSON.parse(json) as Partial<LinkSettings>;
  const defaults = defaultLinkSettings();
  const settings = { ...defaults, ...stored, utm: { ...defaults.utm, ...stored.utm } };
  if (stored.biolink) {
    settings.biolink = { ...defaultBiolinkSettings(), ...stored.biolink };
  }
  if (!(REDIRECT_STATUS_CODES as readonly unknown[]).includes(settings.http_status_code)) {
    settings.http_status_code = defaults.http_status_code;
  }
  return settings;
}
