import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IntRange, IsFormBoolean, IsHttpUrl, OptionalText, Required, Trim } from '@app/common';
import { IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

/** Bounds of the origin (66biolinks) web forms; the API of the origin enforced fewer. */
export const SPLASH_TEXT_MAX = 10_000;

export class CreateSplashPageDto {
  @ApiProperty({ maxLength: 64, example: 'Spring campaign' })
  @Trim()
  @Required()
  @IsString()
  @MaxLength(64)
  name!: string;

  @OptionalText(256)
  title?: string;

  @OptionalText(2048)
  description?: string;

  @OptionalText(256)
  secondary_button_name?: string;

  @ApiPropertyOptional({ maxLength: 1024, description: 'http(s) URL; empty = none' })
  @IsOptional()
  @ValidateIf((o: CreateSplashPageDto) => o.secondary_button_url !== '')
  @IsHttpUrl(1024)
  secondary_button_url?: string;

  @OptionalText(SPLASH_TEXT_MAX)
  custom_css?: string;

  @OptionalText(SPLASH_TEXT_MAX)
  custom_js?: string;

  @OptionalText(SPLASH_TEXT_MAX)
  ads_header?: string;

  @OptionalText(SPLASH_TEXT_MAX)
  ads_footer?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 600, default: 5 })
  @IsOptional()
  @IntRange(0, 600)
  link_unlock_seconds?: number;

  @ApiPropertyOptional({ enum: [0, 1], default: 0 })
  @IsOptional()
  @IsFormBoolean()
  auto_redirect?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1: delete the stored logo' })
  @IsOptional()
  @IsFormBoolean()
  logo_remove?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1: delete the stored favicon' })
  @IsOptional()
  @IsFormBoolean()
  favicon_remove?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1: delete the stored image' })
  @IsOptional()
  @IsFormBoolean()
  opengraph_remove?: boolean;
}
