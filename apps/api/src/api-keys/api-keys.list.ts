import { ListSpec } from '@app/common';
import { API_KEY_SCOPES } from '@app/database';

export const API_KEYS_LIST: ListSpec = {
  searchBy: ['name'],
  orderBy: {
    api_key_id: 'id',
    datetime: 'datetime',
    last_used_datetime: 'last_used_datetime',
    name: 'name',
  },
  datetimeFields: ['datetime', 'last_used_datetime'],
  filters: { scope: { kind: 'enum', values: API_KEY_SCOPES } },
};
