import { ApiProperty } from '@nestjs/swagger';
import { formatDateTime } from '@app/common';
import { DELIVERY_STATUSES, DeliveryEntity } from '@app/database';
import { EVENT_NAMES } from '@app/notifications';

/** One event sent (or being sent) to one handler, with how its last attempt went. */
export class DeliveryResponse {
  @ApiProperty({ example: 12 }) id!: number;
  @ApiProperty({
    example: 'msg_5hGx0bQ1m4dTt7Vb2PZ0sA',
    description: 'Sent as the webhook-id header, the same on every attempt: de-duplicate on it.',
  })
  message_id!: string;
  @ApiProperty({ example: 'evt_Jm3vQ8xk2Yp0aR7bC1dE4f', description: 'The event’s id.' })
  event_id!: string;
  @ApiProperty({ enum: EVENT_NAMES, example: 'link.created' }) event!: string;
  @ApiProperty({ enum: DELIVERY_STATUSES, example: 'delivered' }) status!: string;
  @ApiProperty({ type: 'integer', example: 1, description: 'Attempts made so far.' })
  attempts!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'When the next attempt is due (pending only), UTC.',
  })
  next_attempt_datetime!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 200 }) last_status_code!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 84 }) last_latency_ms!: number | null;
  @ApiProperty({ type: String, nullable: true, example: null }) last_error!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '2026-11-24 10:00:01' })
  delivered_datetime!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '2026-11-24 10:00:01' })
  last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-24 10:00:00' }) datetime!: string;
}

export function toDeliveryResponse(d: DeliveryEntity, eventUid: string): DeliveryResponse {
  return {
    id: d.id,
    message_id: d.uid,
    event_id: eventUid,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    next_attempt_datetime: d.status === 'pending' ? formatDateTime(d.next_attempt_at) : null,
    last_status_code: d.last_status_code,
    last_latency_ms: d.last_latency_ms,
    last_error: d.last_error,
    delivered_datetime: formatDateTime(d.delivered_at),
    last_datetime: formatDateTime(d.last_datetime),
    datetime: formatDateTime(d.datetime),
  };
}
