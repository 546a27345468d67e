// Files, not the libraries' indexes: the visit writer thread raises link events
// (libs/analytics/src/clicks-limit-events.ts) and loads no more than it needs.
import { formatDateTime } from '@app/common/time/datetime';
import {
  BIOLINK_UPLOADS_PATH,
  LinkSettings,
  parseLinkSettings,
  PREVIEW_UPLOADS_PATH,
  TARGETING_TYPES,
} from '@app/database/links/link-settings';
import { LinkEntity } from '@app/database/links/link.entity';

/** The shape of a link in responses and events (documented by the API's LinkResponse). */
export interface LinkPayload {
  id: number;
  type: string;
  url: string;
  location_url: string | null;
  full_url: string;
  domain_id: number;
  project_id: number | null;
  splash_page_id: number | null;
  settings: Record<string, unknown>;
  clicks: number;
  bot_clicks: number;
  is_enabled: boolean;
  start_date: string | null;
  end_date: string | null;
  last_datetime: string | null;
  datetime: string;
  preview_title: string | null;
  preview_description: string | null;
  preview_image_url: string | null;
  destination_status: string;
  destination_status_code: number | null;
  destination_checked_datetime: string | null;
  additional?: { mode: string; static_folder: string; files: string[]; total_files: number };
}

/** Settings keys that never go out as they are stored (each is answered in its own way below). */
const NOT_COPIED = new Set([
  'targeting',
  'targeting_type',
  'phone_number',
  'message',
  'biolink',
  'static_site',
]);
const TARGETING_KEYS = TARGETING_TYPES.map((type) => [type, `targeting_${type}`] as const);

/**
 * The settings as clients see them: the password hash never leaves, only whether one is set.
 * One pass over the stored keys (a list answers it for every row, so it avoids rest and spread
 * copies of the whole object).
 */
export function toSettingsResponse(
  settings: LinkSettings,
  hasPassword: boolean,
  uploadsBase: string | null = null,
): Record<string, unknown> {
  const { targeting, targeting_type, phone_number, message, biolink } = settings;
  const stored = settings as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key in stored) {
    if (!NOT_COPIED.has(key) && Object.hasOwn(stored, key)) {
      out[key] = key === 'password' ? hasPassword : stored[key];
    }
  }
  out.password = hasPassword;
  out.targeting_type = targeting_type ?? false;
  for (const [type, key] of TARGETING_KEYS) {
    out[key] = type === targeting_type ? targeting : [];
  }
  if (phone_number !== undefined) {
    out.phone_number = phone_number;
    out.message = message ?? null;
  }
  if (biolink) {
    Object.assign(out, biolink, {
      avatar:
        biolink.avatar === null || uploadsBase === null
          ? null
          : `${uploadsBase}/${BIOLINK_UPLOADS_PATH}/${biolink.avatar}`,
    });
  }
  return out;
}

/**
 * A link as the API shows it (`GET /v1/links/{id}`, and the `data` of link events).
 * `baseUrl` is the link's domain root without a trailing slash (APP_URL or scheme + host);
 * `appUrl` is where uploads are served (a bio page's avatar), by default `baseUrl`.
 */
export function linkPayload(
  link: LinkEntity,
  baseUrl: string,
  appUrl: string = baseUrl,
): LinkPayload {
  const settings = parseLinkSettings(link.settings);
  const response: LinkPayload = {
    id: link.id,
    type: link.type,
    url: link.url,
    location_url: link.location_url,
    full_url: `${baseUrl}/${link.url}`,
    domain_id: link.domain_id,
    project_id: link.project_id,
    splash_page_id: link.splash_page_id,
    settings: toSettingsResponse(settings, link.password_hash !== null, appUrl),
    clicks: link.clicks,
    bot_clicks: link.bot_clicks,
    is_enabled: link.is_enabled,
    start_date: formatDateTime(link.start_date),
    end_date: formatDateTime(link.end_date),
    last_datetime: formatDateTime(link.last_datetime),
    datetime: formatDateTime(link.datetime),
    preview_title: link.preview_title ?? null,
    preview_description: link.preview_description ?? null,
    preview_image_url: link.preview_image
      ? `${appUrl}/${PREVIEW_UPLOADS_PATH}/${link.preview_image}`
      : null,
    destination_status: link.destination_status ?? 'unknown',
    destination_status_code: link.destination_status_code ?? null,
    destination_checked_datetime: formatDateTime(link.destination_checked_datetime ?? null),
  };
  if (settings.static_site) {
    const site = settings.static_site;
    response.additional = {
      mode: site.mode,
      static_folder: site.folder,
      files: site.files,
      total_files: site.files.length,
    };
  }
  return response;
}
