// The bodies bench:api's baseline apps (raw-express-server.js, raw-nest-server.js) answer from
// memory: the same shapes as Linkdock's answers, so that serialising them costs about the same.
'use strict';

const now = new Date().toISOString().replace('T', ' ').slice(0, 19);

const user = { id: 1, email: 'bench@example.com', name: 'Admin', is_admin: true, timezone: 'UTC' };

const rows = Array.from({ length: 25 }, (_, i) => ({
  id: i + 1,
  url: `bench-${i}`,
  location_url: `https://example.com/landing/${i}`,
  type: 'link',
  clicks: 0,
  datetime: now,
}));

module.exports = { user, rows };
