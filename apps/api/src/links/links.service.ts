import { Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Actor } from '@app/auth';
import { PlanLimits } from '@app/billing';
import {
  AppError,
  Clock,
  LINK_CHANGED,
  LinkChangedEvent,
  ListQuery,
  NotFoundError,
  Paginated,
  UploadedDiskFile,
} from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  Db,
  DomainsRepository,
  LinkEntity,
  type LinkEvents,
  LinksRepository,
  parseLinkSettings,
} from '@app/database';
import {
  CreateLinkDto,
  domainRoot,
  LinkInputService,
  LinkResponse,
  toLinkResponse,
  UpdateLinkDto,
} from '@app/links';
import { BiolinkFiles } from './biolink-files';
import { SiteReplacement } from './static/site-replacement';
import { StaticSites } from './static/static-sites.service';

/** The largest side an avatar is stored at, in pixels. */
const AVATAR_SIDE = 512;

/** A preview text as stored: absent stays absent, empty or null removes it. */
function previewText(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** Writes of one update tried before it gives up because the link keeps changing. */
const UPDATE_ATTEMPTS = 3;

@Injectable()
export class LinksService {
  constructor(
    private readonly db: Db,
    private readonly limits: PlanLimits,
    private readonly links: LinksRepository,
    private readonly domains: DomainsRepository,
    private readonly input: LinkInputService,
    private readonly events: EventEmitter2,
    private readonly clock: Clock,
    private readonly sites: StaticSites,
    private readonly images: BiolinkFiles,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(actor: Actor, query: ListQuery): Promise<Paginated<LinkResponse>> {
    const page = await this.links.listOwned(actor.ownerId, query);
    const bases = await this.baseUrls(actor, page.items);
    return page.map((link) =>
      toLinkResponse(
        link,
        bases.get(link.domain_id) ?? this.config.appUrl,
        this.images.uploadsBase,
      ),
    );
  }

  async get(actor: Actor, id: number): Promise<LinkResponse> {
    const link = await this.findOwned(actor, id);
    const bases = await this.baseUrls(actor, [link]);
    return toLinkResponse(
      link,
      bases.get(link.domain_id) ?? this.config.appUrl,
      this.images.uploadsBase,
    );
  }

  /** Static sites answer with the whole link (seed operation 15), other types with the id. */
  async create(
    actor: Actor,
    dto: CreateLinkDto,
    upload?: UploadedDiskFile,
    avatar?: UploadedDiskFile,
    previewImage?: UploadedDiskFile,
  ): Promise<{ id: number } | LinkResponse> {
    const input = await this.input.validateCreate(actor, dto, upload);
    const { settings, domainId, alias } = input;
    if (avatar && !settings.biolink) {
      throw new AppError(
        'validation_failed',
        'avatar is only for links of type biolink.',
        'avatar',
      );
    }
    if (avatar && settings.biolink) {
      settings.biolink.avatar = await this.images.store('avatar', AVATAR_SIDE, avatar);
    }
    const preview = previewImage ? await this.images.storePreview(previewImage) : null;
    // The files are published first; the row that points at them is written last.
    const site = upload ? await this.sites.publish(upload) : undefined;
    settings.static_site = site;
    const events = await this.linkEvents(actor, 'link.created', domainId);
    const needs = { links: 1, static_storage_bytes: site?.bytes ?? 0 };
    // One write: the plan check (which locks the owner on PostgreSQL), the row, its events.
    let id: number;
    try {
      id = await this.db.write(async () => {
        await this.limits.check(actor.ownerId, needs);
        return this.links.insertWithEvents(
          {
            user_id: actor.ownerId,
            project_id: input.projectId,
            domain_id: domainId,
            splash_page_id: input.splashPageId,
            type: input.type,
            url: alias,
            location_url: input.location,
            settings: JSON.stringify(settings),
            password_hash: input.passwordHash,
            clicks: 0,
            bot_clicks: 0,
            is_enabled: dto.is_enabled ?? true,
            start_date: input.window.start,
            end_date: input.window.end,
            datetime: this.clock.now(),
            last_datetime: null,
            preview_title: previewText(dto.preview_title) ?? null,
            preview_description: previewText(dto.preview_description) ?? null,
            preview_image: preview,
          },
          events,
        );
      });
    } catch (error) {
      // Nothing points at the just-published site or the just-stored images: they go again.
      if (site) await this.sites.remove(site, true);
      await this.images.removePreviews([preview]);
      if (avatar) await this.images.remove([settings.biolink?.avatar]);
      throw error;
    }
    this.emitChanged({ linkId: id, domainId, alias });
    return site ? this.get(actor, id) : { id };
  }

  /**
   * Every write is conditional on the settings read (see LinksRepository.updateOwnedIf): when
   * another update came in between, the changes are computed again on the new row, a few times
   * before giving up with 409. A new file is published once, before the first write; it is removed
   * again when no write points the link at it (a refused update, or a link deleted meanwhile).
   */
  async update(
    actor: Actor,
    id: number,
    dto: UpdateLinkDto,
    upload?: UploadedDiskFile,
    avatar?: UploadedDiskFile,
    previewImage?: UploadedDiskFile,
  ): Promise<{ id: number }> {
    const replacement = new SiteReplacement(this.sites, upload);
    let newAvatar: string | null = null;
    let newPreview: string | null = null;
    try {
      for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt += 1) {
        const link = await this.findOwned(actor, id);
        const planned = await this.input.validateUpdate(actor, link, dto, upload);
        planned.changes.last_datetime = this.clock.now();
        const previousAvatar = planned.settings.biolink?.avatar ?? null;
        if (avatar && !planned.settings.biolink) {
          throw new AppError(
            'validation_failed',
            'avatar is only for links of type biolink.',
            'avatar',
          );
        }
        if (planned.settings.biolink) {
          if (avatar) {
            newAvatar ??= await this.images.store('avatar', AVATAR_SIDE, avatar);
            planned.settings.biolink.avatar = newAvatar;
          } else if (dto.avatar_remove) {
            planned.settings.biolink.avatar = null;
          }
          planned.changes.settings = JSON.stringify(planned.settings);
        }
        const previousPreview = link.preview_image ?? null;
        const title = previewText(dto.preview_title);
        if (title !== undefined) planned.changes.preview_title = title;
        const description = previewText(dto.preview_description);
        if (description !== undefined) planned.changes.preview_description = description;
        if (previewImage) {
          newPreview ??= await this.images.storePreview(previewImage);
          planned.changes.preview_image = newPreview;
        } else if (dto.preview_image_remove) {
          planned.changes.preview_image = null;
        }
        const previousSite = planned.settings.static_site;
        const site = await replacement.publish(previousSite, () => this.findOwned(actor, id));
        if (site) {
          planned.settings.static_site = site;
          planned.changes.settings = JSON.stringify(planned.settings);
        }
        // One UPDATE switches visitors from the old version to the new one.
        const events = await this.linkEvents(actor, 'link.updated', planned.domainId);
        // A new site version counts against static_storage_bytes by what it adds.
        const grows = site ? { static_storage_bytes: site.bytes - (previousSite?.bytes ?? 0) } : {};
        // One write: the plan check (when the site grows), the conditional UPDATE, its events.
        const updated = await this.db.write(async () => {
          await this.limits.check(actor.ownerId, grows);
          return this.links.updateOwnedIf(
            actor.ownerId,
            id,
            link.settings,
            planned.changes,
            events,
          );
        });
        if (updated) {
          this.emitChanged({
            linkId: id,
            domainId: planned.domainId,
            alias: planned.alias,
            previous: { domainId: link.domain_id, alias: link.url },
          });
          await replacement.pointedAt(previousSite);
          if (previousAvatar !== planned.settings.biolink?.avatar) {
            await this.images.remove([previousAvatar]);
          }
          if (planned.changes.preview_image !== undefined) {
            await this.images.removePreviews([previousPreview]);
          }
          return { id };
        }
      }
      await this.findOwned(actor, id);
      throw new AppError(
        'conflict',
        'The link was changed by other requests while this one was being applied; send it again.',
      );
    } catch (error) {
      await replacement.abandon();
      await this.images.remove([newAvatar]);
      await this.images.removePreviews([newPreview]);
      throw error;
    }
  }

  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    const link = await this.findOwned(actor, id);
    const events = await this.linkEvents(actor, 'link.deleted', link.domain_id);
    if (!(await this.links.deleteOwned(actor.ownerId, id, events))) {
      throw new NotFoundError('link_not_found', 'link');
    }
    this.emitChanged({ linkId: id, domainId: link.domain_id, alias: link.url });
    const site = parseLinkSettings(link.settings).static_site;
    if (site) {
      // At once: a deleted link serves nothing. What a concurrent replace writes into the folder
      // afterwards is removed by that replace, or by the sweeper.
      await this.sites.remove(site, true);
    }
    await this.images.remove([parseLinkSettings(link.settings).biolink?.avatar]);
    await this.images.removePreviews([link.preview_image]);
    return { id };
  }

  /** The outbox events of a link write: the link as `GET /v1/links/{id}` shows it. */
  private async linkEvents(actor: Actor, event: string, domainId: number): Promise<LinkEvents> {
    const base = await this.baseUrl(actor, domainId);
    return {
      now: this.clock.now(),
      of: (links) =>
        links.map((link) => ({
          event,
          ownerId: actor.ownerId,
          data: { ...toLinkResponse(link, base, this.images.uploadsBase) },
        })),
    };
  }

  /** The root URL of a domain of the actor's (0 = APP_URL). */
  private async baseUrl(actor: Actor, domainId: number): Promise<string> {
    if (domainId === 0) return this.config.appUrl;
    const domain = await this.domains.findOwned(actor.ownerId, domainId);
    return domain ? domainRoot(domain) : this.config.appUrl;
  }

  private emitChanged(event: LinkChangedEvent): void {
    this.events.emit(LINK_CHANGED, event);
  }

  private async findOwned(actor: Actor, id: number): Promise<LinkEntity> {
    const link = await this.links.findOwned(actor.ownerId, id);
    if (!link) {
      throw new NotFoundError('link_not_found', 'link');
    }
    return link;
  }

  /** Domain roots of the given links, by domain id (0 = APP_URL). */
  private async baseUrls(actor: Actor, links: readonly LinkEntity[]): Promise<Map<number, string>> {
    const bases = new Map<number, string>([[0, this.config.appUrl]]);
    for (const domainId of new Set(links.map((l) => l.domain_id))) {
      if (domainId !== 0) {
        const domain = await this.domains.findOwned(actor.ownerId, domainId);
        if (domain) {
          bases.set(domainId, domainRoot(domain));
        }
      }
    }
    return bases;
  }
}
