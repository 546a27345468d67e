import { ListSpec } from '@app/common';
import { QR_TYPES } from '@app/qr';

export const QR_CODES_LIST: ListSpec = {
  searchBy: ['name'],
  orderBy: {
    qr_code_id: 'id',
    type: 'type',
    name: 'name',
    datetime: 'datetime',
    last_datetime: 'last_datetime',
  },
  datetimeFields: ['datetime', 'last_datetime'],
  filters: {
    type: { kind: 'enum', values: QR_TYPES },
    project_id: { kind: 'integer', zeroIsNone: true },
  },
};
