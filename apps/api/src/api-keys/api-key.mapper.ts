import { ApiProperty } from '@nestjs/swagger';
import { formatDateTime } from '@app/common';
import { API_KEY_SCOPES, ApiKeyEntity } from '@app/database';

/** A key as its owner sees it: never the secret, which exists only as a hash. */
export class ApiKeyResponse {
  @ApiProperty({ example: 3 }) id!: number;
  @ApiProperty({ example: 'Deploy script' }) name!: string;
  @ApiProperty({ example: 'ld_Xk3f9aQ', description: 'The first characters of the key' })
  prefix!: string;
  @ApiProperty({ enum: API_KEY_SCOPES }) scope!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) expiration_datetime!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Last request made with the key (updated at most once a minute)',
  })
  last_used_datetime!: string | null;
  @ApiProperty({ description: 'Whether this request is made with this key' })
  is_current!: boolean;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
}

/** The answer of a create: the key and, this once, its secret. */
export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({
    example: 'ld_Xk3f9aQ…',
    description: 'The key itself, shown only in this answer: store it now',
  })
  api_key!: string;
}

export function toApiKeyResponse(key: ApiKeyEntity, currentKeyId: number): ApiKeyResponse {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scope: key.scope,
    expiration_datetime: formatDateTime(key.expiration_datetime),
    last_used_datetime: formatDateTime(key.last_used_datetime),
    is_current: key.id === currentKeyId,
    datetime: formatDateTime(key.datetime),
  };
}
