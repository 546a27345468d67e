import { ListSpec } from '@app/common';
import { COLLECTOR_BLOCK_TYPES } from '@app/database';

export const DATA_LIST: ListSpec = {
  searchBy: ['email', 'name', 'phone'],
  orderBy: { datum_id: 'id', datetime: 'datetime' },
  datetimeFields: ['datetime'],
  filters: {
    type: { kind: 'enum', values: COLLECTOR_BLOCK_TYPES },
    link_id: { kind: 'integer' },
    biolink_block_id: { kind: 'integer' },
    project_id: { kind: 'integer', zeroIsNone: true },
  },
};

/** The export takes the list's filters; its order is by id only (keyset paging). */
export const DATA_EXPORT_LIST: ListSpec = {
  ...DATA_LIST,
  orderBy: { datum_id: 'id' },
  defaultOrder: { column: 'id', direction: 'ASC' },
};
