// The bodies bench:api's baseline apps (raw-express-server.js, raw-nest-server.js) answer from
// memory: the same shapes and sizes as Linkdock's answers (GET /v1/user with its plan and usage,
// list rows with every field of a link), so that serialising and sending them costs the same.
'use strict';

const now = new Date().toISOString().replace('T', ' ').slice(0, 19);

const LIMITED = [
  'links',
  'biolink_blocks',
  'qr_codes',
  'domains',
  'projects',
  'splash_pages',
  'signatures',
  'notification_handlers',
  'team_members',
  'static_storage_bytes',
];

const user = {
  id: 1,
  email: 'bench@example.com',
  name: 'Admin',
  is_admin: true,
  timezone: 'UTC',
  plan_id: null,
  plan_expiration_date: null,
  plan_settings: {
    ...Object.fromEntries(
      LIMITED.map((name) => [name === 'static_storage_bytes' ? name : `${name}_limit`, -1]),
    ),
    api_rate_limit: -1,
    statistics_retention_days: -1,
  },
  usage: Object.fromEntries(LIMITED.map((name) => [name, { used: 0, limit: -1 }])),
  last_datetime: null,
  datetime: now,
};

const rows = Array.from({ length: 25 }, (_, i) => ({
  id: i + 1,
  type: 'link',
  url: `bench-${i}`,
  location_url: `https://example.com/landing/${i}`,
  full_url: `http://127.0.0.1/bench-${i}`,
  domain_id: 0,
  project_id: null,
  splash_page_id: null,
  settings: {
    http_status_code: 302,
    sensitive_content: false,
    schedule: false,
    clicks_limit: null,
    expiration_url: null,
    forward_query_parameters_is_enabled: false,
    utm: { source: null, medium: null, campaign: null },
    password: false,
    targeting_type: false,
    targeting_country_code: [],
    targeting_continent_code: [],
    targeting_device_type: [],
    targeting_os_name: [],
    targeting_browser_name: [],
    targeting_browser_language: [],
    targeting_rotation: [],
  },
  clicks: 0,
  is_enabled: true,
  start_date: null,
  end_date: null,
  last_datetime: null,
  datetime: now,
}));

module.exports = { user, rows };
