import { ApiProperty } from '@nestjs/swagger';
import { formatDateTime } from '@app/common';
import { ACCOUNT_LOG_TYPES, AccountLogEntity } from '@app/database';

export class AccountLogResponse {
  @ApiProperty({ example: 31 }) id!: number;
  @ApiProperty({ enum: ACCOUNT_LOG_TYPES, example: 'api_key.created' }) type!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { id: 4, name: 'Zapier', prefix: 'ld_Ab3d', scope: 'read' },
    description: 'What it concerns: the key, domain, team member, payment or import summary.',
  })
  data!: Record<string, unknown>;
  @ApiProperty({ example: '2026-11-24 10:00:00' }) datetime!: string;
}

export function toAccountLogResponse(entry: AccountLogEntity): AccountLogResponse {
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(entry.data) as Record<string, unknown>;
  } catch {
    // An entry is always written as JSON; an unreadable one shows without its details.
  }
  return { id: entry.id, type: entry.type, data, datetime: formatDateTime(entry.datetime) };
}
