import { ApiProperty, OmitType } from '@nestjs/swagger';
import { CreateLinkDto, MAX_BULK_LINKS } from '@app/links';

/**
 * Documents the origin's form of POST /v1/links/bulk. Never validated as such: the body is read by
 * readBulkBody and each line checked as a CreateLinkDto.
 */
export class BulkLinksFormDto extends OmitType(CreateLinkDto, [
  'type',
  'name',
  'file',
  'url',
  'location_url',
  'phone_number',
  'message',
] as const) {
  @ApiProperty({ enum: [1], description: 'Marks the form of a bulk create' })
  is_bulk!: number;

  @ApiProperty({
    description: `Destinations, one per line (at most ${MAX_BULK_LINKS}; blank lines are skipped). Each gets a random alias; the other fields apply to every line.`,
    example: 'https://example.com/a\nhttps://example.com/b',
  })
  location_urls!: string;
}

export class BulkCreatedLinkDto {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 'spring-sale', description: 'The alias' }) url!: string;
  @ApiProperty({ example: 'https://links.example.com/spring-sale' }) full_url!: string;
}
