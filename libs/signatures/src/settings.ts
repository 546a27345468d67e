/** The social networks a signature links to by handle, in the order their icons are shown. */
export const SOCIAL_NETWORKS = [
  'facebook',
  'twitter',
  'instagram',
  'youtube',
  'tiktok',
  'spotify',
  'pinterest',
  'linkedin',
  'snapchat',
  'twitch',
  'discord',
  'github',
  'reddit',
] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** Profile address of a handle on each network. */
export const SOCIAL_PROFILE_URL: Record<SocialNetwork, (handle: string) => string> = {
  facebook: (h) => `https://www.facebook.com/${h}`,
  twitter: (h) => `https://x.com/${h}`,
  instagram: (h) => `https://www.instagram.com/${h}`,
  youtube: (h) => `https://www.youtube.com/@${h}`,
  tiktok: (h) => `https://www.tiktok.com/@${h}`,
  spotify: (h) => `https://open.spotify.com/user/${h}`,
  pinterest: (h) => `https://www.pinterest.com/${h}`,
  linkedin: (h) => `https://www.linkedin.com/in/${h}`,
  snapchat: (h) => `https://www.snapchat.com/add/${h}`,
  twitch: (h) => `https://www.twitch.tv/${h}`,
  discord: (h) => `https://discord.gg/${h}`,
  github: (h) => `https://github.com/${h}`,
  reddit: (h) => `https://www.reddit.com/user/${h}`,
};

/** Contact channels shown as text links; each has its own icon too. */
export const CONTACT_ICONS = [
  'email',
  'phone',
  'website',
  'address',
  'whatsapp',
  'telegram',
  'messenger',
] as const;
export type ContactIcon = (typeof CONTACT_ICONS)[number];

export const SIGNATURE_TEMPLATES = ['mars', 'venus', 'saturn'] as const;
export type SignatureTemplate = (typeof SIGNATURE_TEMPLATES)[number];

/** Font choices and the email-safe CSS stack each stands for. */
export const FONT_FAMILIES = {
  arial: 'Arial, Helvetica, sans-serif',
  helvetica: 'Helvetica, Arial, sans-serif',
  verdana: 'Verdana, Geneva, sans-serif',
  tahoma: 'Tahoma, Verdana, sans-serif',
  trebuchet_ms: "'Trebuchet MS', Helvetica, sans-serif",
  georgia: 'Georgia, serif',
  times_new_roman: "'Times New Roman', Times, serif",
  courier_new: "'Courier New', Courier, monospace",
} as const;
export type FontFamily = keyof typeof FONT_FAMILIES;

/** Bounds of the integer settings. */
export const SIZE_BOUNDS = {
  font_size: [10, 24],
  width: [300, 800],
  image_width: [20, 200],
  socials_width: [12, 48],
  socials_padding: [0, 30],
  separator_size: [0, 10],
} as const;
export type SizeKey = keyof typeof SIZE_BOUNDS;

export const TEXT_KEYS = [
  'sign_off',
  'full_name',
  'job_title',
  'department',
  'company',
  'address',
  'phone_number',
  'disclaimer',
] as const;
export const URL_KEYS = ['image_url', 'website_url', 'address_url'] as const;
export const COLOR_KEYS = ['theme_color', 'full_name_color', 'text_color', 'link_color'] as const;

/** The `settings` object of a signature, exactly as the API returns it. */
export interface SignatureSettings {
  direction: 'ltr' | 'rtl';
  is_removed_branding: boolean;
  image_url: string;
  sign_off: string;
  full_name: string;
  job_title: string;
  department: string;
  company: string;
  email: string;
  website_url: string;
  address: string;
  address_url: string;
  phone_number: string;
  whatsapp: string;
  facebook_messenger: string;
  telegram: string;
  disclaimer: string;
  font_family: FontFamily;
  font_size: number;
  width: number;
  image_width: number;
  socials_width: number;
  socials_padding: number;
  separator_size: number;
  theme_color: string;
  full_name_color: string;
  text_color: string;
  link_color: string;
  facebook: string;
  twitter: string;
  instagram: string;
  youtube: string;
  tiktok: string;
  spotify: string;
  pinterest: string;
  linkedin: string;
  snapchat: string;
  twitch: string;
  discord: string;
  github: string;
  reddit: string;
}

export const DEFAULT_SETTINGS: Readonly<SignatureSettings> = {
  direction: 'ltr',
  is_removed_branding: false,
  image_url: '',
  sign_off: '',
  full_name: '',
  job_title: '',
  department: '',
  company: '',
  email: '',
  website_url: '',
  address: '',
  address_url: '',
  phone_number: '',
  whatsapp: '',
  facebook_messenger: '',
  telegram: '',
  disclaimer: '',
  font_family: 'arial',
  font_size: 14,
  width: 500,
  image_width: 50,
  socials_width: 20,
  socials_padding: 10,
  separator_size: 0,
  theme_color: '#2563eb',
  full_name_color: '#111827',
  text_color: '#374151',
  link_color: '#2563eb',
  facebook: '',
  twitter: '',
  instagram: '',
  youtube: '',
  tiktok: '',
  spotify: '',
  pinterest: '',
  linkedin: '',
  snapchat: '',
  twitch: '',
  discord: '',
  github: '',
  reddit: '',
};

export const SETTING_KEYS = Object.keys(DEFAULT_SETTINGS) as Array<keyof SignatureSettings>;

/** Stored settings merged over the defaults: keys added later get their default. */
export function withDefaults(stored: Partial<SignatureSettings>): SignatureSettings {
  const result: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const key of SETTING_KEYS) {
    const value = stored[key];
    if (value !== undefined && typeof value === typeof DEFAULT_SETTINGS[key]) {
      result[key] = value;
    }
  }
  return result as unknown as SignatureSettings;
}
