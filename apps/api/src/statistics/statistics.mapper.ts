import { ApiPropertyOptional } from '@nestjs/swagger';
import type { Dimension, DimensionTotal } from '@app/analytics';

export interface OverviewRow {
  pageviews: number;
  visitors: number;
  formatted_date: string;
}

export interface HourRow {
  hour: string;
  pageviews: number;
}

/** A breakdown row: the dimension's value(s) (null = none, e.g. direct visits) and pageviews. */
export type DimensionRow = Record<string, string | number | null>;

/** Documents the rows: which fields come depends on `type` (see the operation's description). */
export class StatisticsRowResponse {
  @ApiPropertyOptional({ description: 'overview, every type' }) pageviews!: number;
  @ApiPropertyOptional({ description: 'overview: unique visitors' }) visitors?: number;
  @ApiPropertyOptional({ example: '2026-11-22', description: 'overview: Y-m-d H, Y-m-d, Y-m or Y' })
  formatted_date?: string;
  @ApiPropertyOptional({ example: '14:00 - 15:00', description: 'type=hour' }) hour?: string;
  @ApiPropertyOptional({ type: String, nullable: true }) referrer_host?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) referrer_path?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) continent_code?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) country_code?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'type=city_name, in English' })
  country_name?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) city_name?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) os_name?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) browser_name?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, enum: ['desktop', 'mobile', 'tablet'] })
  device_type?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) browser_language?: string | null;
  @ApiPropertyOptional() utm_source?: string;
  @ApiPropertyOptional({ type: String, nullable: true }) utm_medium?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) utm_campaign?: string | null;
  @ApiPropertyOptional({
    example: 'curl',
    description:
      'type=bots: the bot family (Slackbot, Twitterbot, facebookexternalhit, WhatsApp, Googlebot, curl, python-requests, ..., HEAD for a HEAD request of a browser user agent, other); bots are counted here only, never in pageviews, visitors or another type',
  })
  bot?: string;
  @ApiPropertyOptional({
    example: 3,
    description: 'type=qr_codes: the QR code whose scan marker the visits came through',
  })
  qr_code_id?: number;
}

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

function countryName(code: string | null): string | null {
  if (code === null) {
    return null;
  }
  try {
    return regions.of(code) ?? null;
  } catch {
    return null;
  }
}

const orNull = (value: string): string | null => (value === '' ? null : value);

/** The origin's row shape of each breakdown (origin-api.md §3). */
export function toDimensionRow(type: Dimension, row: DimensionTotal): DimensionRow {
  const v1 = orNull(row.value1);
  const v2 = orNull(row.value2);
  const v3 = orNull(row.value3);
  const pageviews = row.pageviews;
  if (type === 'referrer_path') {
    return { referrer_host: v1, referrer_path: v2, pageviews };
  }
  if (type === 'city_name') {
    return { country_code: v1, country_name: countryName(v1), city_name: v2, pageviews };
  }
  if (type === 'utm_medium') {
    return { utm_source: v1, utm_medium: v2, pageviews };
  }
  if (type === 'utm_campaign') {
    return { utm_source: v1, utm_medium: v2, utm_campaign: v3, pageviews };
  }
  if (type === 'bots') {
    return { bot: row.value1, pageviews };
  }
  if (type === 'qr_codes') {
    return { qr_code_id: Number(row.value1), pageviews };
  }
  return { [type]: v1, pageviews };
}
