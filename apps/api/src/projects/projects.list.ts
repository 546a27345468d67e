import { ListSpec } from '@app/common';

export const PROJECTS_LIST: ListSpec = {
  searchBy: ['name'],
  orderBy: { project_id: 'id', datetime: 'datetime', last_datetime: 'last_datetime', name: 'name' },
  datetimeFields: ['datetime', 'last_datetime'],
};
