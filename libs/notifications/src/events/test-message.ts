import { formatDateTime } from '@app/common';
import { newDeliveryUid, newEventUid } from '@app/database';
import type { NotificationMessage } from '../notification-message';

/**
 * The message `POST /notification-handlers/{id}/test` sends: an event named `test`, delivered
 * like any other (a fresh `evt_…` id, a `msg_…` delivery id), so a webhook receives the same
 * body shape and the same Standard Webhooks headers and signature as for a real event.
 */
export function testMessage(
  handler: { id: number; name: string; type: string },
  ownerId: number,
  now: Date,
): NotificationMessage {
  const data = { notification_handler_id: handler.id, type: handler.type };
  return {
    event: 'test',
    title: 'Linkdock test notification',
    text: `This is a test message for the notification handler "${handler.name}".`,
    data,
    delivery: {
      id: newDeliveryUid(),
      envelope: {
        id: newEventUid(),
        event: 'test',
        created_at: formatDateTime(now),
        owner_id: ownerId,
        data,
      },
    },
  };
}
