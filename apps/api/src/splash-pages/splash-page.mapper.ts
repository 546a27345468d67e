import { ApiProperty } from '@nestjs/swagger';
import { formatDateTime } from '@app/common';
import { SplashPageEntity } from '@app/database';
import { SplashFiles } from './splash-files';

export class SplashPageSettingsResponse {
  @ApiProperty({ type: String, nullable: true, description: 'Absolute URL of the PNG, or null' })
  logo!: string | null;
  @ApiProperty({ type: String, nullable: true }) favicon!: string | null;
  @ApiProperty({ type: String, nullable: true }) opengraph!: string | null;
  @ApiProperty({ type: String, nullable: true }) secondary_button_name!: string | null;
  @ApiProperty({ type: String, nullable: true }) secondary_button_url!: string | null;
  @ApiProperty({ type: String, nullable: true }) custom_css!: string | null;
  @ApiProperty({ type: String, nullable: true }) custom_js!: string | null;
  @ApiProperty({ type: String, nullable: true }) ads_header!: string | null;
  @ApiProperty({ type: String, nullable: true }) ads_footer!: string | null;
}

export class SplashPageResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 'Spring campaign' }) name!: string;
  @ApiProperty({
    example: '#2f5bea',
    description: 'Accent colour (#rrggbb) of the continue button',
  })
  color!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Before you go' }) title!: string | null;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ example: 5 }) link_unlock_seconds!: number;
  @ApiProperty({ example: false }) auto_redirect!: boolean;
  @ApiProperty({ type: SplashPageSettingsResponse }) settings!: SplashPageSettingsResponse;
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
}

export function toSplashPageResponse(
  page: SplashPageEntity,
  files: SplashFiles,
): SplashPageResponse {
  const s = page.settings;
  return {
    id: page.id,
    name: page.name,
    color: page.color,
    title: page.title,
    description: page.description,
    link_unlock_seconds: page.link_unlock_seconds,
    auto_redirect: page.auto_redirect,
    settings: {
      logo: files.url(page.logo),
      favicon: files.url(page.favicon),
      opengraph: files.url(page.opengraph),
      secondary_button_name: s.secondary_button_name,
      secondary_button_url: s.secondary_button_url,
      custom_css: s.custom_css,
      custom_js: s.custom_js,
      ads_header: s.ads_header,
      ads_footer: s.ads_footer,
    },
    last_datetime: formatDateTime(page.last_datetime),
    datetime: formatDateTime(page.datetime),
  };
}
