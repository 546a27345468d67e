import { EventEmitter } from 'node:events';
import type Redis from 'ioredis';
import type { VisitRecorder } from '@app/analytics';
import type { AppConfig } from '@app/config';
import {
  type BiolinkBlocksRepository,
  defaultLinkSettings,
  type DomainsRepository,
  LinkEntity,
  type LinksRepository,
  type SplashPagesRepository,
} from '@app/database';
import { VISITOR_INVALIDATION_CHANNEL, VisitorCache } from './visitor-cache.service';

function row(alias: string): LinkEntity {
  return Object.assign(new LinkEntity(), {
    id: 1,
    user_id: 7,
    project_id: null,
    domain_id: 0,
    splash_page_id: null,
    type: 'link',
    url: alias,
    location_url: 'https://example.com/',
    settings: JSON.stringify({ ...defaultLinkSettings(), clicks_limit: 100 }),
    password_hash: null,
    clicks: 0,
    is_enabled: true,
    start_date: null,
    end_date: null,
    datetime: new Date('2024-01-01T00:00:00Z'),
    last_datetime: null,
  });
}

describe(VisitorCache.name, () => {
  let cache: VisitorCache;
  let subscriber: EventEmitter & { subscribe: jest.Mock };
  let publish: jest.Mock;
  const recorder: Partial<VisitRecorder> = { unflushed: () => 0 };

  beforeEach(() => {
    subscriber = Object.assign(new EventEmitter(), {
      subscribe: jest.fn().mockResolvedValue(1),
    });
    publish = jest.fn().mockResolvedValue(1);
    const redis = { status: 'ready', duplicate: () => subscriber, publish };
    cache = new VisitorCache(
      {
        findByAlias: (_d: number, alias: string) => Promise.resolve(row(alias)),
      } as unknown as LinksRepository,
      {} as DomainsRepository,
      { appUrl: 'https://links.test', linkCacheSize: 100 } as AppConfig,
      redis as unknown as Redis,
      recorder as VisitRecorder,
      {} as SplashPagesRepository,
      {} as BiolinkBlocksRepository,
    );
    cache.onModuleInit();
  });

  it('tells the other instances of clicks written, and reloads a link on their word only', async () => {
    cache.onLimitedLinksWritten({ links: [{ domainId: 0, alias: 'sale' }] });
    expect(publish).toHaveBeenCalledTimes(1);
    const [channel, message] = publish.mock.calls[0] as [string, string];
    const sent = JSON.parse(message) as { origin: string };
    expect([channel, sent]).toEqual([
      VISITOR_INVALIDATION_CHANNEL,
      { kind: 'clicks', domainId: 0, alias: 'sale', origin: expect.any(String) as string },
    ]);

    await cache.loadLink(0, 'sale');
    // Its own message: this instance's count is exact already.
    subscriber.emit('message', VISITOR_INVALIDATION_CHANNEL, message);
    expect(cache.peekLink(0, 'sale')).toMatchObject({ clicksAtLoad: 0 });
    // Another instance's: reload with what it wrote.
    subscriber.emit(
      'message',
      VISITOR_INVALIDATION_CHANNEL,
      JSON.stringify({ ...sent, origin: 'another-instance' }),
    );
    expect(cache.peekLink(0, 'sale')).toBeUndefined();
  });

  it('forgets every link when the subscription comes back after a lost connection', async () => {
    await cache.loadLink(0, 'kept');
    subscriber.emit('ready');
    expect(cache.peekLink(0, 'kept')).toBeDefined();
    subscriber.emit('close');
    subscriber.emit('ready');
    expect(cache.peekLink(0, 'kept')).toBeUndefined();
  });
});
