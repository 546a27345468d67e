import { formatDateTime } from '@app/common';
import type { OutboxEventEntity } from '@app/database';

/** What receivers get for one event: the same object in every channel's payload. */
export interface EventEnvelope {
  /** The event's unique id (`evt_…`); the same across retries and handlers. */
  id: string;
  event: string;
  /** `Y-m-d H:i:s`, UTC. */
  created_at: string;
  owner_id: number;
  data: Record<string, unknown>;
}

export function toEventEnvelope(row: OutboxEventEntity): EventEnvelope {
  return {
    id: row.uid,
    event: row.event,
    created_at: formatDateTime(row.created_at),
    owner_id: row.owner_id,
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
}
