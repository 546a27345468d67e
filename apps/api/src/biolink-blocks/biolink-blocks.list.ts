import { ListSpec } from '@app/common';
import { BIOLINK_BLOCK_TYPES } from '@app/database';

export const BIOLINK_BLOCKS_LIST: ListSpec = {
  searchBy: [],
  orderBy: { biolink_block_id: 'id', order: 'order', datetime: 'datetime' },
  datetimeFields: ['datetime'],
  filters: {
    link_id: { kind: 'integer' },
    type: { kind: 'enum', values: BIOLINK_BLOCK_TYPES },
    is_enabled: { kind: 'boolean' },
  },
};
