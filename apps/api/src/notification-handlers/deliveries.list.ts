import { ListSpec } from '@app/common';
import { DELIVERY_STATUSES } from '@app/database';
import { EVENT_NAMES } from '@app/notifications';

export const DELIVERIES_LIST: ListSpec = {
  searchBy: [],
  orderBy: {
    delivery_id: 'id',
    datetime: 'datetime',
  },
  datetimeFields: ['datetime'],
  filters: {
    status: { kind: 'enum', values: DELIVERY_STATUSES },
    event: { kind: 'enum', values: EVENT_NAMES },
  },
};
