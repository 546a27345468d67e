import { ListSpec } from '@app/common';
import { ACCOUNT_LOG_TYPES } from '@app/database';

export const ACCOUNT_LOGS_LIST: ListSpec = {
  searchBy: [],
  orderBy: { id: 'id', datetime: 'datetime' },
  datetimeFields: ['datetime'],
  filters: { type: { kind: 'enum', values: ACCOUNT_LOG_TYPES } },
};
