import { ListSpec } from '@app/common';

export const DOMAINS_LIST: ListSpec = {
  searchBy: ['host'],
  orderBy: { domain_id: 'id', datetime: 'datetime', last_datetime: 'last_datetime', host: 'host' },
  datetimeFields: ['datetime', 'last_datetime'],
  filters: { is_enabled: { kind: 'boolean' } },
};
