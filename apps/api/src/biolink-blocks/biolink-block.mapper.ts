import { ApiProperty } from '@nestjs/swagger';
import { formatDateTime } from '@app/common';
import { BIOLINK_BLOCK_TYPES, BiolinkBlockEntity } from '@app/database';

export class BiolinkBlockResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 1, description: 'The bio page' }) link_id!: number;
  @ApiProperty({ enum: BIOLINK_BLOCK_TYPES, example: 'link' }) type!: string;
  @ApiProperty({ example: 0, description: 'Position on the page, ascending' }) order!: number;
  @ApiProperty({ example: true }) is_enabled!: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The per-type fields (docs/bio-pages.md); image blocks add image (the URL of the picture)',
  })
  settings!: Record<string, unknown>;
  @ApiProperty({ example: 0, description: 'link blocks: visitors who followed the button' })
  clicks!: number;
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
}

export class CreatedBiolinkBlockResponse {
  @ApiProperty({ example: 1 }) id!: number;
}

/** `imageUrl` turns a stored image name into its address. */
export function toBiolinkBlockResponse(
  block: BiolinkBlockEntity,
  imageUrl: (name: string | null) => string | null,
): BiolinkBlockResponse {
  const settings = JSON.parse(block.settings) as Record<string, unknown>;
  if (block.type === 'image') {
    settings.image = imageUrl(typeof settings.image === 'string' ? settings.image : null);
  }
  return {
    id: block.id,
    link_id: block.link_id,
    type: block.type,
    order: block.order,
    is_enabled: block.is_enabled,
    settings,
    clicks: block.clicks,
    last_datetime: formatDateTime(block.last_datetime),
    datetime: formatDateTime(block.datetime),
  };
}
