import { ApiProperty } from '@nestjs/swagger';
import { COLLECTOR_BLOCK_TYPES, DatumEntity, datumRecord } from '@app/database';


export class DatumResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 3, description: 'The block that collected it (kept after deletion)' })
  biolink_block_id!: number;
  @ApiProperty({ example: 2, description: 'The bio page (kept after deletion)' }) link_id!: number;
  @ApiProperty({ type: Number, nullable: true, example: null }) project_id!: number | null;
  @ApiProperty({ enum: COLLECTOR_BLOCK_TYPES, example: 'email_collector' }) type!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { email: 'email@example.com', name: 'John doe' },
    description:
      'email_collector: email, name; phone_collector: phone (E.164), name; contact_collector: phone, email, message, name; appointment_calendar: date (UTC Y-m-d), start_time, end_time (UTC H:i), duration_value, duration_type, email, phone, name, message',
  })
  data!: Record<string, unknown>;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
}

/** Exactly the seed's fields: this is also the `data` of the `data.created` event. */
export function toDatumResponse(datum: DatumEntity): DatumResponse {
  return datumRecord(datum);
}
