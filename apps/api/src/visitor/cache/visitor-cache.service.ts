import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import type Redis from 'ioredis';
import {
  LIMITED_LINKS_WRITTEN,
  type LimitedLinksWrittenEvent,
  VisitRecorder,
} from '@app/analytics';
import {
  BoundedCache,
  DOMAIN_CHANGED,
  type DomainChangedEvent,
  LINK_CHANGED,
  type LinkChangedEvent,
} from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  BiolinkBlocksRepository,
  DomainsRepository,
  LinkEntity,
  LinksRepository,
  SplashPagesRepository,
} from '@app/database';
import { closeRedisClient, duplicateRedisClient, publishQuietly, REDIS } from '@app/redis';
import { compileBio } from '../pages/bio-page';
import { compileSplash } from '../pages/splash-page';
import { compileLink, VisitorLink, locationOf } from './visitor-link';

/** A custom domain as the visitor side routes it. */
export interface VisitorDomain {
  id: number;
  /** `https://` or `http://`, as the domain was added. */
  scheme: string;
  host: string;
  enabled: boolean;
  indexUrl: string | null;
  notFoundUrl: string | null;
}

/** Instances of different versions share this channel: its name stays as it is. */
export const VISITOR_INVALIDATION_CHANNEL = 'linkdock:edge:invalidate';

type Invalidation =
  | { kind: 'link'; domainId: number; alias: string }
  | { kind: 'domain'; domainId: number; host: string }
  /** Visits of a link with a clicks limit were written by instance `origin` (older instances ignore it). */
  | { kind: 'clicks'; domainId: number; alias: string; origin: string };

const linkKey = (domainId: number, alias: string): string => `${domainId}/${alias}`;

/**
 * The in-process cache of links and custom domains that lets the visitor side answer without the
 * database. Unknown aliases and hosts are cached too (as null), so a scan costs one query per
 * address. Entries are dropped on every change event of this process and, when REDIS_URL is set,
 * on every change published by other instances.
 */
@Injectable()
export class VisitorCache implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(VisitorCache.name);
  private readonly links: BoundedCache<VisitorLink | null>;
  private readonly hosts: BoundedCache<VisitorDomain | null>;
  private readonly linkLoads = new Map<string, Promise<VisitorLink | null>>();
  private readonly hostLoads = new Map<string, Promise<VisitorDomain | null>>();
  /** Bumped by every invalidation: a load that started before it must not fill the cache. */
  private epoch = 0;
  private subscriber: Redis | null = null;
  /** Whether the subscriber was subscribed and lost its connection since. */
  private missedInvalidations = false;
  /** Tells this instance's own `clicks` messages from the others'. */
  private readonly origin = randomUUID();
  private readonly appUrl: string;
  /** Link lookups answered from the cache, and those that were not (read by /metrics). */
  hits = 0;
  misses = 0;

  constructor(
    private readonly linksRepo: LinksRepository,
    private readonly domainsRepo: DomainsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis | null,
    private readonly recorder: VisitRecorder,
    private readonly splashPages: SplashPagesRepository,
    private readonly blocks: BiolinkBlocksRepository,
  ) {
    this.appUrl = config.appUrl;
    this.links = new BoundedCache(config.linkCacheSize);
    this.hosts = new BoundedCache(config.linkCacheSize);
  }

  onModuleInit(): void {
    if (!this.redis) {
      return;
    }
    const subscriber = duplicateRedisClient(this.redis);
    this.subscriber = subscriber;
    subscriber.on('message', (_channel: string, message: string) => this.onRemote(message));
    // Changes published while the connection was down never arrive: forget everything once it is
    // back (ioredis subscribes again by itself).
    subscriber.on('close', () => {
      this.missedInvalidations = true;
    });
    subscriber.on('ready', () => {
      if (this.missedInvalidations) {
        this.missedInvalidations = false;
        this.clear();
      }
    });
    subscriber.subscribe(VISITOR_INVALIDATION_CHANNEL).catch((err: unknown) => {
      this.logger.warn(`Cannot subscribe to cache invalidations: ${String(err)}`);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.subscriber) await closeRedisClient(this.subscriber);
  }

  /** undefined = not cached: call loadLink. null = known not to exist. */
  peekLink(domainId: number, alias: string): VisitorLink | null | undefined {
    const link = this.links.get(linkKey(domainId, alias));
    if (link === undefined) this.misses += 1;
    else this.hits += 1;
    return link;
  }

  loadLink(domainId: number, alias: string): Promise<VisitorLink | null> {
    const key = linkKey(domainId, alias);
    let load = this.linkLoads.get(key);
    if (!load) {
      const epoch = this.epoch;
      load = this.linksRepo
        .findByAlias(domainId, alias)
        .then((row) => (row ? this.compile(row) : null))
        .then((link) => {
          if (link) {
            // Visits counted but not yet written are not in the row's `clicks`.
            link.clicksSinceLoad = this.recorder.unflushed(link.id);
          }
          if (epoch === this.epoch) {
            this.links.set(key, link);
          }
          return link;
        })
        .finally(() => this.linkLoads.delete(key));
      this.linkLoads.set(key, load);
    }
    return load;
  }

  /** A link with its splash page (the link owner's only: a page never shows on another's link). */
  private async compile(row: LinkEntity): Promise<VisitorLink> {
    const page =
      row.splash_page_id === null
        ? null
        : await this.splashPages.findOwned(row.user_id, row.splash_page_id);
    const bio =
      row.type === 'biolink'
        ? compileBio(row, await this.blocks.findForLink(row.id), this.appUrl)
        : null;
    return compileLink(row, page ? compileSplash(page, this.appUrl) : null, bio);
  }

  peekHost(host: string): VisitorDomain | null | undefined {
    return this.hosts.get(host);
  }

  loadHost(host: string): Promise<VisitorDomain | null> {
    let load = this.hostLoads.get(host);
    if (!load) {
      const epoch = this.epoch;
      load = this.domainsRepo
        .findByHost(host)
        .then((rows) => {
          const row = rows.find((d) => d.is_enabled) ?? rows[0];
          const domain: VisitorDomain | null = row
            ? {
                id: row.id,
                scheme: row.scheme,
                host: row.host,
                enabled: row.is_enabled,
                indexUrl: locationOf(row.custom_index_url),
                notFoundUrl: locationOf(row.custom_not_found_url),
              }
            : null;
          if (epoch === this.epoch) {
            this.hosts.set(host, domain);
          }
          return domain;
        })
        .finally(() => this.hostLoads.delete(host));
      this.hostLoads.set(host, load);
    }
    return load;
  }

  @OnEvent(LINK_CHANGED)
  onLinkChanged(event: LinkChangedEvent): void {
    this.apply({ kind: 'link', domainId: event.domainId, alias: event.alias });
    this.publish({ kind: 'link', domainId: event.domainId, alias: event.alias });
    if (event.previous) {
      this.apply({ kind: 'link', ...event.previous });
      this.publish({ kind: 'link', ...event.previous });
    }
  }

  @OnEvent(DOMAIN_CHANGED)
  onDomainChanged(event: DomainChangedEvent): void {
    for (const host of new Set([event.host, event.previousHost ?? event.host])) {
      this.apply({ kind: 'domain', domainId: event.domainId, host });
      this.publish({ kind: 'domain', domainId: event.domainId, host });
    }
  }

  /**
   * Tells the other instances that visits of these links (each with a clicks limit) were written:
   * they reload them, with the clicks written so far, before their next visit.
   */
  @OnEvent(LIMITED_LINKS_WRITTEN)
  onLimitedLinksWritten({ links }: LimitedLinksWrittenEvent): void {
    if (!this.redis) return;
    for (const link of links) {
      this.publish({ kind: 'clicks', ...link, origin: this.origin });
    }
  }

  /** Forgets every link and domain (after invalidations may have been missed). */
  private clear(): void {
    this.epoch += 1;
    this.links.clear();
    this.hosts.clear();
  }

  private apply(change: Invalidation): void {
    this.epoch += 1;
    if (change.kind === 'link' || change.kind === 'clicks') {
      this.links.delete(linkKey(change.domainId, change.alias));
      return;
    }
    this.hosts.delete(change.host);
    const prefix = `${change.domainId}/`;
    for (const key of this.links.keys()) {
      if (key.startsWith(prefix)) {
        this.links.delete(key);
      }
    }
  }

  private publish(change: Invalidation): void {
    publishQuietly(
      this.redis,
      VISITOR_INVALIDATION_CHANNEL,
      change,
      this.logger,
      'a cache invalidation',
    );
  }

  private onRemote(message: string): void {
    try {
      const change = JSON.parse(message) as Invalidation;
      if (
        change.kind === 'link' ||
        change.kind === 'domain' ||
        (change.kind === 'clicks' && change.origin !== this.origin)
      ) {
        this.apply(change);
      }
    } catch {
      this.logger.warn('Ignored a malformed cache invalidation message');
    }
  }
}
