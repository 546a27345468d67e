import type { NotificationMessage } from '../notification-message';
import type { EventEnvelope } from './envelope';

type Data = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The object's own scalars, flat, for channels that show fields (chat cards, email tables). */
function scalars(data: Data): NotificationMessage['data'] {
  const out: NotificationMessage['data'] = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
      out[key] = value as string | number | boolean | null;
    }
  }
  return out;
}

function linkName(data: Data): string {
  return text(data.full_url) || text(data.url) || `link ${text(data.id)}`;
}

/** One sentence per event, naming the resource, with where to see it. */
const SENTENCES: Record<string, (data: Data, appUrl: string) => { title: string; text: string }> = {
  'data.created': (d) => {
    const record = (d.data ?? {}) as Data;
    const who = text(record.name) || text(record.email) || text(record.phone) || 'a visitor';
    return {
      title: 'New submission',
      text: `New ${text(d.type).replace(/_/g, ' ')} record from ${who} on bio page ${text(d.link_id)} (record ${text(d.id)}).`,
    };
  },
  'payment.created': (d) => ({
    title: 'Payment received',
    text: `A ${text(d.frequency)} payment of ${text(d.total_amount)} ${text(d.currency)} by ${text(d.email) || 'a customer'} through ${text(d.processor)} was recorded.`,
  }),
  'link.created': (d) => ({
    title: 'Link created',
    text: `${linkName(d)} was created${d.location_url ? `, pointing to ${text(d.location_url)}` : ''}.`,
  }),
  'link.updated': (d) => ({ title: 'Link updated', text: `${linkName(d)} was updated.` }),
  'link.deleted': (d) => ({ title: 'Link deleted', text: `${linkName(d)} was deleted.` }),
  'link.clicks_limit_reached': (d) => ({
    title: 'Click limit reached',
    text: `${linkName(d)} reached its limit of ${text((d.settings as Data | undefined)?.clicks_limit) || 'its'} clicks; visitors now see the expiration page.`,
  }),
  'link.expired': (d) => ({
    title: 'Link expired',
    text: `${linkName(d)} passed the end of its schedule${d.end_date ? ` (${text(d.end_date)} UTC)` : ''}.`,
  }),
  'link.destination_broken': (d) => ({
    title: 'Destination broken',
    text: `${linkName(d)} points to ${text(d.location_url)}, which failed 3 checks in a row${d.destination_status_code ? ` (last status ${text(d.destination_status_code)})` : ''}.`,
  }),
  'link.destination_recovered': (d) => ({
    title: 'Destination recovered',
    text: `${linkName(d)} points to ${text(d.location_url)}, which answers again.`,
  }),
  'domain.verified': (d) => ({
    title: 'Domain verified',
    text: `${text(d.host)} is verified and now serves your links.`,
  }),
  'domain.disabled': (d) => ({
    title: 'Domain disabled',
    text: `${text(d.host)} was disabled: ${text(d.reason) || 'its verification failed'}.`,
  }),
  'team_member.invited': (d) => ({
    title: 'Team invitation sent',
    text: `${text(d.user_email)} was invited to team ${text(d.team_name)}.`,
  }),
  'team_member.accepted': (d) => ({
    title: 'Team invitation accepted',
    text: `${text(d.user_email)} joined team ${text(d.team_name)}.`,
  }),
  'team_member.left': (d) => ({
    title: 'Team member left',
    text: `${text(d.user_email)} is no longer in team ${text(d.team_name)}.`,
  }),
};

/** Where the resource of an event is described in the API, for a "see it" link. */
function resourceUrl(envelope: EventEnvelope, appUrl: string): string {
  const d = envelope.data;
  const base = appUrl.replace(/\/+$/, '');
  switch (envelope.event.split('.')[0]) {
    case 'link':
      return text(d.full_url) || `${base}/v1/links/${text(d.id)}`;
    case 'data':
      return `${base}/v1/data/${text(d.id)}`;
    case 'payment':
      return `${base}/v1/payments/${text(d.id)}`;
    case 'domain':
      return `${base}/v1/domains/${text(d.id)}`;
    default:
      return `${base}/v1/teams/${text(d.team_id)}/members`;
  }
}

/** A catalogue event as the short human message chat, SMS, push and email channels send. */
export function toNotificationMessage(
  envelope: EventEnvelope,
  appUrl: string,
): NotificationMessage {
  const sentence =
    SENTENCES[envelope.event] ?? (() => ({ title: envelope.event, text: envelope.event }));
  const { title, text: body } = sentence(envelope.data, appUrl);
  const url = resourceUrl(envelope, appUrl);
  return {
    event: envelope.event,
    title,
    text: `${body} ${url}`,
    data: { ...scalars(envelope.data), event_id: envelope.id, url },
  };
}
