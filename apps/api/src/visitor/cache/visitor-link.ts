import { createHash } from 'node:crypto';
import { setQueryParams, storedLocation } from '@app/common';
import {
  LinkEntity,
  parseLinkSettings,
  RedirectStatusCode,
  TargetingRule,
  TargetingType,
} from '@app/database';
import type { SiteRef } from '@app/storage';
import type { VisitorBio } from '../pages/bio-page';
import type { VisitorSplash } from '../pages/splash-page';

/** A link compiled for the visitor side: everything a redirect needs, computed once per load. */
export interface VisitorLink {
  id: number;
  domainId: number;
  alias: string;
  enabled: boolean;
  startMs: number | null;
  endMs: number | null;
  statusCode: RedirectStatusCode;
  /** The destination with the link's UTM parameters applied. */
  location: string | null;
  forwardQuery: boolean;
  clicksLimit: number | null;
  /** `clicks` as read from the database when this entry was loaded. */
  clicksAtLoad: number;
  /** Counted visits of this process since the entry was loaded. */
  clicksSinceLoad: number;
  expirationUrl: string | null;
  passwordHash: string | null;
  /** Changes whenever the password changes, so old unlock cookies stop working. */
  passwordTag: string | null;
  sensitive: boolean;
  targetingType: TargetingType | null;
  /** Rules with their destinations' UTM parameters applied; rotation keys are weights. */
  targeting: TargetingRule[];
  rotationTotal: number;
  /** The splash page shown before the destination, or null. */
  splash: VisitorSplash | null;
  /** static links: the published version of the site; null for other types. */
  site: SiteRef | null;
  /** biolink links: the page and its enabled blocks; null for other types. */
  bio: VisitorBio | null;
  /** What link-preview fetchers are shown (preview.gate.ts); null when the link has no preview. */
  preview: LinkPreview | null;
}

/** A link's own preview: the image is its stored name under `uploads/previews/`. */
export interface LinkPreview {
  title: string | null;
  description: string | null;
  image: string | null;
}

function previewOf(link: LinkEntity): LinkPreview | null {
  const title = link.preview_title ?? null;
  const description = link.preview_description ?? null;
  const image = link.preview_image ?? null;
  return title === null && description === null && image === null
    ? null
    : { title, description, image };
}

/** Adds the link's UTM values to a destination, keeping the destination's own parameters. */
export function withUtm(
  destination: string,
  utm: { source: string | null; medium: string | null; campaign: string | null },
): string {
  const set: Array<[string, string]> = [];
  if (utm.source) set.push(['utm_source', utm.source]);
  if (utm.medium) set.push(['utm_medium', utm.medium]);
  if (utm.campaign) set.push(['utm_campaign', utm.campaign]);
  return setQueryParams(destination, set);
}

/** A stored URL as a `Location` header can carry it, or null (see `storedLocation`). */
export const locationOf = storedLocation;

export function compileLink(
  link: LinkEntity,
  splash: VisitorSplash | null = null,
  bio: VisitorBio | null = null,
): VisitorLink {
  const settings = parseLinkSettings(link.settings);
  const targeting = settings.targeting.flatMap((rule) => {
    const value = locationOf(rule.value);
    return value === null ? [] : [{ key: rule.key, value: withUtm(value, settings.utm) }];
  });
  const location = locationOf(link.location_url);
  return {
    id: link.id,
    domainId: link.domain_id,
    alias: link.url,
    enabled: link.is_enabled,
    startMs: link.start_date ? link.start_date.getTime() : null,
    endMs: link.end_date ? link.end_date.getTime() : null,
    statusCode: settings.http_status_code,
    location: location === null ? null : withUtm(location, settings.utm),
    forwardQuery: settings.forward_query_parameters_is_enabled,
    clicksLimit: settings.clicks_limit,
    clicksAtLoad: link.clicks,
    clicksSinceLoad: 0,
    expirationUrl: locationOf(settings.expiration_url),
    passwordHash: link.password_hash,
    passwordTag: link.password_hash
      ? createHash('sha256').update(link.password_hash).digest('base64url').slice(0, 16)
      : null,
    sensitive: settings.sensitive_content,
    targetingType: settings.targeting_type,
    targeting,
    rotationTotal:
      settings.targeting_type === 'rotation'
        ? targeting.reduce((sum, rule) => sum + Number(rule.key), 0)
        : 0,
    splash,
    site: settings.static_site
      ? { siteId: settings.static_site.folder, version: settings.static_site.version }
      : null,
    bio,
    preview: previewOf(link),
  };
}
