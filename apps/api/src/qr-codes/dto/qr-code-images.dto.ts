import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IntRange, IsFormBoolean } from '@app/common';

/** The logo, background and foreground images: their file parts, sizes and removal. */
export class QrImageFields {
  @ApiPropertyOptional({ type: 'integer', minimum: 5, maximum: 35 })
  @IsOptional()
  @IntRange(5, 35)
  qr_code_logo_size?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100 })
  @IsOptional()
  @IntRange(0, 100)
  qr_code_background_transparency?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100 })
  @IsOptional()
  @IntRange(0, 100)
  qr_code_foreground_transparency?: number;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1' })
  @IsOptional()
  @IsFormBoolean()
  qr_code_logo_remove?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1' })
  @IsOptional()
  @IsFormBoolean()
  qr_code_background_remove?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1' })
  @IsOptional()
  @IsFormBoolean()
  qr_code_foreground_remove?: boolean;

  /** Documents the file part; the file itself reaches the service through @Uploaded(). */
  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description: 'Logo: PNG, JPEG, WebP or SVG (checked by content), at most 2 MB',
  })
  @IsOptional()
  qr_code_logo?: unknown;

  /** Documents the file part; the file itself reaches the service through @Uploaded(). */
  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description: 'Background image: PNG, JPEG, WebP or SVG (checked by content), at most 2 MB',
  })
  @IsOptional()
  qr_code_background?: unknown;

  /** Documents the file part; the file itself reaches the service through @Uploaded(). */
  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description:
      'Foreground image (fills the modules): PNG, JPEG, WebP or SVG (checked by content), at most 2 MB',
  })
  @IsOptional()
  qr_code_foreground?: unknown;
}
