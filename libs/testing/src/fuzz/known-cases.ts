import type { FuzzInput } from './request-arbitrary';
import { deepArray, Raw, Ref, Value } from './values';

/**
 * Requests issue 14 already knows to break the server, run first for their operation (as
 * fast-check examples) so that the fuzz certainly covers them whatever the seed.
 */
const json = (value: Value, ids: (Ref | Raw)[] = []): FuzzInput => ({
  ids,
  query: [],
  rawQuery: [],
  team: undefined,
  body: { kind: 'json', value, contentType: 'application/json' },
});

const rawJson = (data: string): FuzzInput => ({
  ids: [],
  query: [],
  rawQuery: [],
  team: undefined,
  body: { kind: 'raw', contentType: 'application/json', data },
});

const first = (pool: string): Ref => new Ref(pool, 'own', 0);

const LINK = { location_url: 'https://example.com/' };
const QR = { name: 'Known', type: 'text', text: 'known' };
const QR_NULLABLE = [
  'style',
  'inner_eye_style',
  'outer_eye_style',
  'foreground_color',
  'background_color',
  'eyes_inner_color',
  'eyes_outer_color',
  'size',
];

/** A flat object of 80,000 keys (about 870 KB of JSON, under the 1 MB body limit). */
export const EIGHTY_THOUSAND_KEYS = `{${Array.from({ length: 80_000 }, (_, i) => `"k${i}":0`).join(',')}}`;

export const KNOWN_CASES: Record<string, FuzzInput[]> = {
  'POST /v1/links': [
    json({ ...LINK, url: 'crashme', http_status_code: null }),
    json({ location_url: 'https://example.com/😀', url: 'known-emoji' }),
    json({ location_url: 'https://example。com/', url: 'known-fullwidth-dot' }),
    json({ location_url: 'https://example.com/\r\nX-Injected: 1', url: 'known-crlf' }),
    json({
      ...LINK,
      url: 'known-rotation',
      targeting_type: 'rotation',
      targeting_rotation_key: ['1'],
      targeting_rotation_value: ['https://example.com/😀'],
    }),
    json({
      ...LINK,
      url: 'known-expiry',
      clicks_limit: 1,
      expiration_url: 'https://example.com/😀',
    }),
    json({ ...LINK, url: 'known-utm', utm_source: '\ud800x' }),
    rawJson(EIGHTY_THOUSAND_KEYS),
    rawJson(deepArray(5000).text),
  ],
  'POST /v1/links/{id}': [
    json({ http_status_code: null }, [first('links')]),
    json({ url: null }, [first('links')]),
    json({ password: null }, [first('links')]),
    json({ utm_source: '\ud800x' }, [first('links')]),
  ],
  'POST /v1/qr-codes': [
    ...QR_NULLABLE.map((field) => json({ ...QR, [field]: null })),
    // A url code of an own link gets the scan marker (rendered twice): with a marker, a query and
    // a fragment of its own already, and one on a port of the main host.
    json({ name: 'Known scan', type: 'url', url: 'http://links.test/known-utm?ld_qr=5&a=%00#x' }),
    json({ name: 'Known port', type: 'url', url: 'http://links.test:1/known-utm' }),
  ],
  'POST /v1/qr-codes/{id}': QR_NULLABLE.map((field) =>
    json({ [field]: null }, [first('qr-codes')]),
  ),
  'POST /v1/notification-handlers': [
    json({ name: 'Known', type: 'email', email: 'a\ud800@example.com' }),
  ],
  'POST /v1/team-members': [json({ team_id: first('teams'), user_email: 'a\ud800@example.com' })],
};
