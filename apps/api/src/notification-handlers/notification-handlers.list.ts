import { ListSpec } from '@app/common';
import { HANDLER_TYPES } from '@app/notifications';

export const NOTIFICATION_HANDLERS_LIST: ListSpec = {
  searchBy: ['name'],
  orderBy: {
    notification_handler_id: 'id',
    datetime: 'datetime',
    last_datetime: 'last_datetime',
    name: 'name',
  },
  datetimeFields: ['datetime', 'last_datetime'],
  filters: {
    type: { kind: 'enum', values: HANDLER_TYPES },
    is_enabled: { kind: 'boolean' },
  },
};
