import { ListSpec } from '@app/common';

export const TEAMS_LIST: ListSpec = {
  searchBy: ['name'],
  orderBy: { team_id: 'id', name: 'name', datetime: 'datetime', last_datetime: 'last_datetime' },
  datetimeFields: ['datetime', 'last_datetime'],
};

/** The invitee's memberships (GET /v1/teams-member). */
export const TEAMS_MEMBER_LIST: ListSpec = {
  orderBy: { team_member_id: 'id', datetime: 'datetime', last_datetime: 'last_datetime' },
  datetimeFields: ['datetime', 'last_datetime'],
};
