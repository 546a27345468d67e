/** The document's tags, in the order Swagger UI shows them, each with what its operations do. */
export const OPENAPI_TAGS: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'links',
    description:
      'Short links, WhatsApp chat links, static sites and bio pages: create, list, read, update, delete, bulk create and export.',
  },
  { name: 'biolink-blocks', description: 'The blocks of a bio page (links, text, collectors).' },
  {
    name: 'qr-codes',
    description: 'QR codes of every content type, rendered as SVG and PNG with styles and frames.',
  },
  { name: 'statistics', description: 'Visits of a link or of all links, by dimension and period.' },
  { name: 'data', description: 'Records collected by bio page forms; CSV and JSON export.' },
  { name: 'domains', description: 'Custom domains and their DNS TXT verification.' },
  { name: 'splash-pages', description: 'Pages shown to visitors before the destination.' },
  { name: 'signatures', description: 'Email signatures and their HTML and preview page.' },
  { name: 'projects', description: 'Projects that group links, QR codes and signatures.' },
  {
    name: 'notification-handlers',
    description: 'Where events are delivered: webhook, email, chat apps, SMS, push.',
  },
  { name: 'push-subscribers', description: "Browsers' push subscriptions for push handlers." },
  { name: 'teams', description: 'Teams you own.' },
  {
    name: 'team-members',
    description: 'Members of your teams and their access flags (invite, update, remove).',
  },
  {
    name: 'teams-member',
    description: 'Teams you are invited to or a member of (accept with status=1, leave).',
  },
  { name: 'user', description: 'The account of the API key.' },
  { name: 'api-keys', description: "The account's own API keys (never through a team)." },
  { name: 'logs', description: "The account's own log (never through a team)." },
  {
    name: 'payments',
    description:
      "The account's own payments, recorded from Stripe, Paddle and Lemon Squeezy webhooks or by the operator (never through a team).",
  },
  {
    name: 'payment-webhooks',
    description:
      'Sent by Stripe, Paddle and Lemon Squeezy to /webhooks/{processor} (outside /v1, no API key): signed over the raw body, each recorded once.',
  },
  {
    name: 'operations',
    description:
      'For the operator, outside /v1: GET /health (no key) and GET /metrics (Prometheus, METRICS_TOKEN).',
  },
];
