import { ListSpec } from '@app/common';

export const SPLASH_PAGES_LIST: ListSpec = {
  searchBy: ['name'],
  orderBy: {
    splash_page_id: 'id',
    datetime: 'datetime',
    last_datetime: 'last_datetime',
    name: 'name',
  },
  datetimeFields: ['datetime', 'last_datetime'],
};
