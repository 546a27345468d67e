import { EventEmitter2 } from '@nestjs/event-emitter';
import { Actor } from '@app/auth';
import {
  Clock,
  ErrorEntry,
  ImageIntake,
  ImageQueue,
  LINK_CHANGED,
  UploadedDiskFile,
} from '@app/common';
import type { AppConfig } from '@app/config';
import {
  defaultLinkSettings,
  DomainEntity,
  DomainsRepository,
  LinkChanges,
  LinkEntity,
  LinksRepository,
  parseLinkSettings,
  ProjectsRepository,
  SplashPagesRepository,
  StaticSiteSettings,
  type LinkEvents,
  type OutboxEventInput,
} from '@app/database';
import { LinkChecks, LinkInputService } from '@app/links';
import type { ObjectStore, SiteStorage } from '@app/storage';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { inlineWrites, type PlanCheck } from '@app/testing/inline-writes';
import { BiolinkFiles } from './biolink-files';
import { LinksService } from './links.service';
import { StaticSites } from './static/static-sites.service';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const clock: Clock = { now: () => new Date(NOW) };
const ACTOR: Actor = { userId: 1, apiKeyId: 9, isAdmin: false, ownerId: 2 };
const APP_URL = 'https://links.test';
const DESTINATION = 'https://example.com/page';
const NOT_FOUND: ErrorEntry[] = [
  {
    status: 404,
    title: 'The link you are looking for does not exist.',
    code: 'link_not_found',
  },
];

/** An in-memory LinksRepository whose conditional write loses while other requests interfere. */
class FakeLinks {
  readonly rows: LinkEntity[] = [];
  /** Writes of other requests, one before each of the next conditional writes. */
  readonly interfere: Array<(row: LinkEntity) => void> = [];
  conditionalWrites = 0;
  failInsert: Error | undefined;

  findOwned(ownerId: number, id: number): Promise<LinkEntity | null> {
    const row = this.rows.find((l) => l.id === id && l.user_id === ownerId);
    return Promise.resolve(row ? Object.assign(new LinkEntity(), row) : null);
  }

  /** The outbox events each write raised, as its transaction would have written them. */
  readonly outbox: OutboxEventInput[] = [];

  insertWithEvents(values: Omit<LinkEntity, 'id'>, events: LinkEvents): Promise<number> {
    if (this.failInsert) {
      return Promise.reject(this.failInsert);
    }
    const id = 100 + this.rows.length;
    const row = Object.assign(new LinkEntity(), values, { id });
    this.rows.push(row);
    this.outbox.push(...events.of([row]));
    return Promise.resolve(id);
  }

  updateOwnedIf(
    ownerId: number,
    id: number,
    read: string,
    changes: LinkChanges,
    events?: LinkEvents,
  ): Promise<boolean> {
    this.conditionalWrites += 1;
    const find = () => this.rows.find((l) => l.id === id && l.user_id === ownerId);
    const other = this.interfere.shift();
    const before = find();
    if (before && other) other(before);
    const row = find();
    if (!row || row.settings !== read) {
      return Promise.resolve(false);
    }
    Object.assign(row, changes);
    if (events) this.outbox.push(...events.of([row]));
    return Promise.resolve(true);
  }

  deleteOwned(ownerId: number, id: number, events?: LinkEvents): Promise<boolean> {
    const index = this.rows.findIndex((l) => l.id === id && l.user_id === ownerId);
    if (index >= 0) {
      const [row] = this.rows.splice(index, 1);
      if (events) this.outbox.push(...events.of([row]));
    }
    return Promise.resolve(index >= 0);
  }

  aliasTaken(domainId: number, alias: string, exceptId?: number): Promise<boolean> {
    const found = this.rows.find((l) => l.domain_id === domainId && l.url === alias);
    return Promise.resolve(found !== undefined && found.id !== exceptId);
  }
}

/** StaticSites with the storage replaced by a log of what would be published and removed. */
class RecordingSites extends StaticSites {
  readonly log: string[] = [];
  private published = 0;
  failPublish: (() => Error) | undefined;

  constructor() {
    super(undefined as unknown as SiteStorage, {} as AppConfig);
  }

  override publish(upload: UploadedDiskFile, folder?: string): Promise<StaticSiteSettings> {
    this.log.push(`publish into ${folder ?? 'a new folder'}`);
    if (this.failPublish) {
      return Promise.reject(this.failPublish());
    }
    this.published += 1;
    return Promise.resolve(site(folder ?? 'site-new', `v${this.published + 1}`));
  }

  override retire(old: StaticSiteSettings): Promise<void> {
    this.log.push(`retire ${old.folder}/${old.version}`);
    return Promise.resolve();
  }

  override remove(old: StaticSiteSettings, wholeSite = false): Promise<void> {
    this.log.push(`remove ${old.folder}/${wholeSite ? '*' : old.version}`);
    return Promise.resolve();
  }
}

function site(folder: string, version: string): StaticSiteSettings {
  return { mode: 'zip', folder, version, files: ['index.html'], bytes: 10 };
}

function row(values: Partial<LinkEntity>, staticSite?: StaticSiteSettings): LinkEntity {
  return Object.assign(
    new LinkEntity(),
    {
      id: 40,
      user_id: 2,
      project_id: null,
      domain_id: 0,
      splash_page_id: null,
      type: 'link',
      url: 'spring-sale',
      location_url: DESTINATION,
      settings: JSON.stringify({ ...defaultLinkSettings(), static_site: staticSite }),
      password_hash: null,
      clicks: 0,
      is_enabled: true,
      start_date: null,
      end_date: null,
      datetime: new Date('2026-01-02T03:04:05.000Z'),
      last_datetime: null,
    },
    values,
  );
}

const zip: UploadedDiskFile = { field: 'file', originalName: 'site.zip', size: 10, path: '/tmp/z' };

describe(LinksService.name, () => {
  let links: FakeLinks;
  let sites: RecordingSites;
  let events: Array<[string, unknown]>;
  let service: LinksService;
  let planChecks: PlanCheck[];

  beforeEach(() => {
    links = new FakeLinks();
    links.rows.push(row({}), row({ id: 41, user_id: 3, url: 'theirs' }));
    const domains = {
      findOwned: (ownerId: number, id: number) =>
        Promise.resolve(
          ownerId === 2 && id === 5
            ? Object.assign(new DomainEntity(), { id, scheme: 'https://', host: 'go.example.com' })
            : null,
        ),
      findEnabledByHost: () => Promise.resolve(null),
    } as unknown as DomainsRepository;
    const none = { findOwned: () => Promise.resolve(null) };
    const checks = new LinkChecks(
      links as unknown as LinksRepository,
      domains,
      none as unknown as ProjectsRepository,
      none as unknown as SplashPagesRepository,
      { appUrl: APP_URL },
    );
    sites = new RecordingSites();
    events = [];
    const emitter = {
      emit: (name: string, payload: unknown) => events.push([name, payload]) > 0,
    } as unknown as EventEmitter2;
    // Plans limit nothing here; the writes run at once (the repository is a fake).
    const writes = inlineWrites();
    planChecks = writes.checks;
    service = new LinksService(
      writes.db,
      writes.limits,
      links as unknown as LinksRepository,
      domains,
      new LinkInputService(checks),
      emitter,
      clock,
      sites,
      new BiolinkFiles(
        { appUrl: APP_URL, storage: { publicUrl: null } } as unknown as AppConfig,
        { delete: () => Promise.resolve() } as unknown as ObjectStore,
        new ImageIntake(new ImageQueue(1, 32)),
      ),
      { appUrl: APP_URL } as AppConfig,
    );
  });

  describe('create', () => {
    it("inserts the owner's link and announces it", async () => {
      expect(await service.create(ACTOR, { location_url: DESTINATION, url: 'autumn' })).toEqual({
        id: 102,
      });
      expect(links.rows[2]).toMatchObject({
        user_id: 2,
        type: 'link',
        url: 'autumn',
        location_url: DESTINATION,
        settings: JSON.stringify(defaultLinkSettings()),
        is_enabled: true,
        datetime: NOW,
        last_datetime: null,
      });
      expect(events).toEqual([[LINK_CHANGED, { linkId: 102, domainId: 0, alias: 'autumn' }]]);
      expect(planChecks).toEqual([{ ownerId: 2, needs: { links: 1, static_storage_bytes: 0 } }]);
      expect(links.outbox).toEqual([
        {
          event: 'link.created',
          ownerId: 2,
          data: expect.objectContaining({
            id: 102,
            url: 'autumn',
            full_url: `${APP_URL}/autumn`,
            location_url: DESTINATION,
          }),
        },
      ]);
    });

    it('publishes a site before the row that points at it, and answers with the whole link', async () => {
      const created = await service.create(
        ACTOR,
        { type: 'static', name: 'Docs', url: 'guide' },
        zip,
      );
      expect(created).toMatchObject({
        id: 102,
        type: 'static',
        full_url: `${APP_URL}/guide`,
        additional: { mode: 'zip', static_folder: 'site-new', files: ['index.html'] },
      });
      expect(sites.log).toEqual(['publish into a new folder']);
    });

    it('removes the new site when its row cannot be written', async () => {
      links.failInsert = new Error('disk full');
      await expect(
        service.create(ACTOR, { type: 'static', name: 'Docs', url: 'guide' }, zip),
      ).rejects.toThrow('disk full');
      expect(sites.log).toEqual(['publish into a new folder', 'remove site-new/*']);
      expect(events).toEqual([]);
    });

    it('publishes nothing for a body it refuses', async () => {
      expect(
        await rejectionEntries(
          service.create(ACTOR, { type: 'static', name: 'D', url: 'api' }, zip),
        ),
      ).toHaveLength(1);
      expect(sites.log).toEqual([]);
    });
  });

  describe('update', () => {
    it('writes the changes with the time and announces where the link was before', async () => {
      expect(await service.update(ACTOR, 40, { url: 'autumn', domain_id: 5 })).toEqual({ id: 40 });
      expect(links.rows[0]).toMatchObject({ url: 'autumn', domain_id: 5, last_datetime: NOW });
      expect(events).toEqual([
        [
          LINK_CHANGED,
          {
            linkId: 40,
            domainId: 5,
            alias: 'autumn',
            previous: { domainId: 0, alias: 'spring-sale' },
          },
        ],
      ]);
    });

    it('computes the changes again on the row another request wrote meanwhile', async () => {
      links.interfere.push((link) => {
        link.settings = JSON.stringify({ ...parseLinkSettings(link.settings), clicks_limit: 9 });
      });
      await service.update(ACTOR, 40, { http_status_code: 301 });
      expect(links.conditionalWrites).toBe(2);
      expect(parseLinkSettings(links.rows[0].settings)).toMatchObject({
        clicks_limit: 9,
        http_status_code: 301,
      });
    });

    it('gives up with 409 after three lost writes, and removes the version it published', async () => {
      links.rows[0] = row({ type: 'static', location_url: null }, site('site-1', 'v1'));
      let n = 0;
      const other = (link: LinkEntity) => {
        link.settings = JSON.stringify({ ...parseLinkSettings(link.settings), clicks_limit: ++n });
      };
      links.interfere.push(other, other, other);
      expect(await rejectionEntries(service.update(ACTOR, 40, { name: 'New' }, zip))).toEqual([
        {
          status: 409,
          title:
            'The link was changed by other requests while this one was being applied; send it again.',
          code: 'conflict',
        },
      ]);
      expect(links.conditionalWrites).toBe(3);
      expect(sites.log).toEqual(['publish into site-1', 'remove site-1/v2']);
      expect(events).toEqual([]);
    });

    it('publishes a new file once, points the link at it, then retires the old version', async () => {
      links.rows[0] = row({ type: 'static', location_url: null }, site('site-1', 'v1'));
      links.interfere.push((link) => {
        link.settings = JSON.stringify({ ...parseLinkSettings(link.settings), clicks_limit: 3 });
      });
      await service.update(ACTOR, 40, {}, zip);
      // Each write checks what the new version adds (both versions are 10 bytes).
      expect(planChecks).toEqual([
        { ownerId: 2, needs: { static_storage_bytes: 0 } },
        { ownerId: 2, needs: { static_storage_bytes: 0 } },
      ]);
      expect(sites.log).toEqual(['publish into site-1', 'retire site-1/v1']);
      expect(parseLinkSettings(links.rows[0].settings).static_site).toEqual(site('site-1', 'v2'));
    });

    it('answers 404 and removes the new version when the link is deleted meanwhile', async () => {
      links.rows[0] = row({ type: 'static', location_url: null }, site('site-1', 'v1'));
      links.interfere.push(() => links.rows.splice(0, 1));
      expect(await rejectionEntries(service.update(ACTOR, 40, {}, zip))).toEqual(NOT_FOUND);
      expect(sites.log).toEqual(['publish into site-1', 'remove site-1/v2']);
    });

    it('answers 404 when publishing failed because the link and its folder went away', async () => {
      links.rows[0] = row({ type: 'static', location_url: null }, site('site-1', 'v1'));
      sites.failPublish = () => {
        links.rows.splice(0, 1);
        return new Error('ENOENT');
      };
      expect(await rejectionEntries(service.update(ACTOR, 40, {}, zip))).toEqual(NOT_FOUND);
      expect(sites.log).toEqual(['publish into site-1']);
    });

    it('passes a publishing failure on while the link exists', async () => {
      links.rows[0] = row({ type: 'static', location_url: null }, site('site-1', 'v1'));
      sites.failPublish = () => new Error('EIO');
      await expect(service.update(ACTOR, 40, {}, zip)).rejects.toThrow('EIO');
    });

    it("answers 404 for another owner's link", async () => {
      expect(await rejectionEntries(service.update(ACTOR, 41, { url: 'mine' }))).toEqual(NOT_FOUND);
    });
  });

  describe('remove', () => {
    it('deletes the link, announces it and removes its whole site', async () => {
      links.rows[0] = row({ type: 'static', location_url: null }, site('site-1', 'v1'));
      expect(await service.remove(ACTOR, 40)).toEqual({ id: 40 });
      expect(links.rows.map((l) => l.id)).toEqual([41]);
      expect(events).toEqual([[LINK_CHANGED, { linkId: 40, domainId: 0, alias: 'spring-sale' }]]);
      expect(sites.log).toEqual(['remove site-1/*']);
      expect(links.outbox).toEqual([
        {
          event: 'link.deleted',
          ownerId: 2,
          data: expect.objectContaining({ id: 40, url: 'spring-sale', type: 'static' }),
        },
      ]);
    });

    it("answers 404 for another owner's link", async () => {
      expect(await rejectionEntries(service.remove(ACTOR, 41))).toEqual(NOT_FOUND);
      expect(links.rows).toHaveLength(2);
      expect(links.outbox).toEqual([]);
    });
  });

  it('answers a link with the root of its domain', async () => {
    links.rows[0].domain_id = 5;
    expect(await service.get(ACTOR, 40)).toMatchObject({
      full_url: 'https://go.example.com/spring-sale',
    });
  });
});
