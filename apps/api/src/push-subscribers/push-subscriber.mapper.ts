import { ApiProperty } from '@nestjs/swagger';
import { formatDateTime } from '@app/common';
import { PushSubscriberEntity } from '@app/database';

export class PushSubscriberResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 'My laptop' }) name!: string;
  @ApiProperty({
    example: 'https://fcm.googleapis.com/****Xy9z',
    description: 'The push service endpoint, masked: its origin and last 4 characters.',
  })
  endpoint!: string;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'The last push sent.' })
  last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-24 10:00:00' }) datetime!: string;
}

export class VapidPublicKeyResponse {
  @ApiProperty({
    description:
      'The applicationServerKey to pass to pushManager.subscribe() (65-byte P-256 point, base64url).',
  })
  public_key!: string;
}

/** The endpoint is a capability URL (anyone holding it can push): only its origin is shown. */
function maskEndpoint(endpoint: string): string {
  try {
    return `${new URL(endpoint).origin}/****${endpoint.slice(-4)}`;
  } catch {
    return `****${endpoint.slice(-4)}`;
  }
}

export function toPushSubscriberResponse(s: PushSubscriberEntity): PushSubscriberResponse {
  return {
    id: s.id,
    name: s.name,
    endpoint: maskEndpoint(s.endpoint),
    last_datetime: formatDateTime(s.last_datetime),
    datetime: formatDateTime(s.datetime),
  };
}
