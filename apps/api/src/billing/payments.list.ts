import { PAYMENT_FREQUENCIES, PAYMENT_PROCESSORS, PAYMENT_TYPES } from '@app/billing';
import { ListSpec } from '@app/common';

export const PAYMENTS_LIST: ListSpec = {
  searchBy: ['email', 'name'],
  orderBy: { id: 'id', datetime: 'datetime', total_amount: 'total_amount' },
  datetimeFields: ['datetime'],
  filters: {
    type: { kind: 'enum', values: PAYMENT_TYPES },
    frequency: { kind: 'enum', values: PAYMENT_FREQUENCIES },
    status: { kind: 'boolean' },
    processor: { kind: 'enum', values: PAYMENT_PROCESSORS },
    plan_id: { kind: 'integer' },
  },
};
