import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DomainEntity, LinkEntity } from '@app/database';
import { linkPayload } from '@app/notifications';

export class StaticSiteInfo {
  @ApiProperty({ enum: ['html', 'zip'], description: 'How the site was uploaded' })
  mode!: string;
  @ApiProperty({ example: '5f0c3e1a9b7d2c4e6a8b0d1f', description: 'Storage id of the site' })
  static_folder!: string;
  @ApiProperty({ type: [String], example: ['index.html', 'css/site.css'] })
  files!: string[];
  @ApiProperty({ example: 2 }) total_files!: number;
}

export class LinkResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ enum: ['link', 'walink', 'static', 'biolink'], example: 'link' }) type!: string;
  @ApiProperty({ example: 'spring-sale', description: 'The alias' }) url!: string;
  @ApiProperty({ type: String, nullable: true, example: 'https://example.com/page' })
  location_url!: string | null;
  @ApiProperty({ example: 'https://links.example.com/spring-sale' }) full_url!: string;
  @ApiProperty({ example: 0, description: '0 = the main domain' }) domain_id!: number;
  @ApiProperty({ type: Number, nullable: true, example: null }) project_id!: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: null,
    description: 'The splash page visitors see first, or null',
  })
  splash_page_id!: number | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'http_status_code, password (whether one is set), sensitive_content, schedule, clicks_limit, expiration_url, forward_query_parameters_is_enabled, utm {source, medium, campaign}, targeting_type (false when off) and targeting_<type> [{key, value}]; walinks add phone_number and message; static links add name; bio pages (biolink) add name, title, description, avatar (URL or null), background_color, background_color_two (null = solid), text_color, button_color, button_text_color, font, seo_title, seo_description, seo_noindex',
  })
  settings!: Record<string, unknown>;
  @ApiProperty({ example: 10, description: 'Visits, bots not included' }) clicks!: number;
  @ApiProperty({
    example: 2,
    description:
      'Visits of bots, link-preview fetchers, scripts (curl is one) and HEAD requests: counted apart, never in clicks (statistics type=bots)',
  })
  bot_clicks!: number;
  @ApiProperty({ example: true }) is_enabled!: boolean;
  @ApiProperty({ type: String, nullable: true, example: null }) start_date!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null }) end_date!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Spring sale: 20% off' })
  preview_title!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null })
  preview_description!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'The 1200x630 JPEG shown in link previews, or null',
  })
  preview_image_url!: string | null;
  @ApiProperty({
    enum: ['unknown', 'ok', 'broken'],
    example: 'unknown',
    description: 'The last destination check: broken after 3 failed checks in a row',
  })
  destination_status!: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: null,
    description: 'The HTTP status of the last check, null when none answered',
  })
  destination_status_code!: number | null;
  @ApiProperty({ type: String, nullable: true, example: null })
  destination_checked_datetime!: string | null;
  @ApiPropertyOptional({ type: StaticSiteInfo, description: 'static links only' })
  additional?: StaticSiteInfo;
}

/**
 * `baseUrl` is the link's domain root without a trailing slash (APP_URL or scheme + host);
 * `appUrl` is where uploads are served (the avatar of a bio page), by default `baseUrl`.
 */
export function toLinkResponse(
  link: LinkEntity,
  baseUrl: string,
  appUrl: string = baseUrl,
): LinkResponse {
  return linkPayload(link, baseUrl, appUrl);
}

/** The root URL of a custom domain, e.g. `https://go.example.com`. */
export function domainRoot(domain: Pick<DomainEntity, 'scheme' | 'host'>): string {
  return `${domain.scheme}${domain.host}`;
}
