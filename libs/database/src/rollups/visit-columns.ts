import type { BatchColumn } from '../engine/batch';

/**
 * A visit as the recorder hands it to the writer: the columns of the `visits` table but its id.
 * Spelled out rather than derived from VisitEntity, so that the roll-up code does not import the
 * entities; @app/analytics checks that the two agree.
 */
export interface NewVisit {
  link_id: number;
  datetime: Date;
  referrer_host: string | null;
  referrer_path: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  continent_code: string | null;
  country_code: string | null;
  city_name: string | null;
  os_name: string | null;
  browser_name: string | null;
  device_type: string | null;
  browser_language: string | null;
  is_unique: boolean;
  visitor_hash: string;
  /** A bot's family (its visit counts only under `bots`), null for a visitor's visit. */
  bot: string | null;
  /** The QR code the visit is a scan of, null for none. */
  qr_code_id: number | null;
}

/** The columns that describe the visit (what statistics break pageviews down by). */
export const VISIT_DIMENSION_COLUMNS = [
  'referrer_host',
  'referrer_path',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'continent_code',
  'country_code',
  'city_name',
  'os_name',
  'browser_name',
  'device_type',
  'browser_language',
] as const satisfies ReadonlyArray<keyof NewVisit>;

/** The columns the visit writer fills, in its order. */
export const VISIT_COLUMNS = [
  'link_id',
  'datetime',
  ...VISIT_DIMENSION_COLUMNS,
  'is_unique',
  'visitor_hash',
  'bot',
  'qr_code_id',
] as const satisfies ReadonlyArray<keyof NewVisit>;

/** Each column's type (a batch write's, engine/batch.ts: PostgreSQL's name for it). */
export const VISIT_COLUMN_TYPES: Record<(typeof VISIT_COLUMNS)[number], BatchColumn['type']> = {
  link_id: 'int',
  datetime: 'timestamp',
  referrer_host: 'varchar',
  referrer_path: 'varchar',
  utm_source: 'varchar',
  utm_medium: 'varchar',
  utm_campaign: 'varchar',
  continent_code: 'varchar',
  country_code: 'varchar',
  city_name: 'varchar',
  os_name: 'varchar',
  browser_name: 'varchar',
  device_type: 'varchar',
  browser_language: 'varchar',
  is_unique: 'boolean',
  visitor_hash: 'varchar',
  bot: 'varchar',
  qr_code_id: 'int',
};
