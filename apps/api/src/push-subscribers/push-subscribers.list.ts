import { ListSpec } from '@app/common';

export const PUSH_SUBSCRIBERS_LIST: ListSpec = {
  searchBy: ['name'],
  orderBy: {
    push_subscriber_id: 'id',
    datetime: 'datetime',
    last_datetime: 'last_datetime',
    name: 'name',
  },
  datetimeFields: ['datetime', 'last_datetime'],
};
