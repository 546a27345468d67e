import { ListSpec } from '@app/common';

export const SIGNATURES_LIST: ListSpec = {
  searchBy: ['name'],
  orderBy: {
    signature_id: 'id',
    name: 'name',
    datetime: 'datetime',
    last_datetime: 'last_datetime',
  },
  datetimeFields: ['datetime', 'last_datetime'],
  filters: { project_id: { kind: 'integer', zeroIsNone: true } },
};
