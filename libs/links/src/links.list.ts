import { ListSpec } from '@app/common';
import { DESTINATION_STATUSES, LINK_TYPES } from '@app/database';

export const LINKS_LIST: ListSpec = {
  searchBy: ['url', 'location_url'],
  orderBy: {
    link_id: 'id',
    datetime: 'datetime',
    last_datetime: 'last_datetime',
    clicks: 'clicks',
    url: 'url',
  },
  datetimeFields: ['datetime', 'last_datetime'],
  filters: {
    is_enabled: { kind: 'boolean' },
    type: { kind: 'enum', values: LINK_TYPES },
    project_id: { kind: 'integer', zeroIsNone: true },
    domain_id: { kind: 'integer' },
    destination_status: { kind: 'enum', values: DESTINATION_STATUSES },
  },
};
