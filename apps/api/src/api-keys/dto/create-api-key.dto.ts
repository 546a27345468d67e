import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { Required, Trim } from '@app/common';
import { API_KEY_SCOPES, type ApiKeyScope } from '@app/database';

export class CreateApiKeyDto {
  @ApiProperty({ maxLength: 64, example: 'Deploy script' })
  @Trim()
  @Required()
  @IsString()
  @MaxLength(64)
  name!: string;

  @ApiProperty({
    enum: API_KEY_SCOPES,
    description: 'full: everything the account may do; read: GET requests only',
  })
  @Required()
  @IsIn(API_KEY_SCOPES, { message: 'scope must be one of full, read' })
  scope!: ApiKeyScope;

  @ApiPropertyOptional({
    description:
      'Y-m-d H:i:s (UTC), in the future; at most the expiry of the key making this one, which is the default when that key expires',
    example: '2027-01-01 00:00:00',
  })
  @Trim()
  @IsOptional()
  @ValidateIf((o: CreateApiKeyDto) => o.expiration_datetime !== '')
  @Matches(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, {
    message: 'expiration_datetime must be Y-m-d H:i:s',
  })
  expiration_datetime?: string;
}
