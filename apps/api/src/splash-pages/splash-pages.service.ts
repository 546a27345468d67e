import { Injectable } from '@nestjs/common';
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
  UploadedFiles,
} from '@app/common';
import {
  Db,
  LinkAddress,
  SPLASH_DEFAULT_COLOR,
  SplashPageChanges,
  SplashPageEntity,
  SplashPageSettings,
  SplashPagesRepository,
} from '@app/database';
import { CreateSplashPageDto } from './dto/create-splash-page.dto';
import { UpdateSplashPageDto } from './dto/update-splash-page.dto';
import { SPLASH_IMAGE_FIELDS, SplashFiles, SplashImage } from './splash-files';
import { SplashPageResponse, toSplashPageResponse } from './splash-page.mapper';

const SETTINGS_FIELDS = [
  'secondary_button_name',
  'secondary_button_url',
  'custom_css',
  'custom_js',
  'ads_header',
  'ads_footer',
] as const;

type Images = Record<SplashImage, string | null>;

@Injectable()
export class SplashPagesService {
  constructor(
    private readonly db: Db,
    private readonly limits: PlanLimits,
    private readonly pages: SplashPagesRepository,
    private readonly files: SplashFiles,
    private readonly events: EventEmitter2,
    private readonly clock: Clock,
  ) {}

  async list(actor: Actor, query: ListQuery): Promise<Paginated<SplashPageResponse>> {
    return (await this.pages.listOwned(actor.ownerId, query)).map((p) =>
      toSplashPageResponse(p, this.files),
    );
  }

  async get(actor: Actor, id: number): Promise<SplashPageResponse> {
    return toSplashPageResponse(await this.findOwned(actor, id), this.files);
  }

  async create(
    actor: Actor,
    dto: CreateSplashPageDto,
    uploads: UploadedFiles,
  ): Promise<{ id: number }> {
    const settings = applySettings(emptySettings(), dto);
    const images = await this.storeImages(uploads);
    try {
      const id = await this.db.write(async () => {
        await this.limits.check(actor.ownerId, { splash_pages: 1 });
        return this.pages.insert({
          user_id: actor.ownerId,
          name: dto.name,
          color: dto.color ?? SPLASH_DEFAULT_COLOR,
          title: dto.title || null,
          description: dto.description || null,
          link_unlock_seconds: dto.link_unlock_seconds ?? 5,
          auto_redirect: dto.auto_redirect ?? false,
          settings,
          logo: null,
          favicon: null,
          opengraph: null,
          ...imageChanges(dto, images.stored),
          datetime: this.clock.now(),
          last_datetime: null,
        });
      });
      return { id };
    } catch (e) {
      await this.files.remove(images.created);
      throw e;
    }
  }

  /**
   * Every field is updated when sent, custom CSS/JS and ads included (the origin ignored those).
   * The new images are written first (outside the transaction: re-encoding is slow); the row is
   * then changed by `UPDATE … WHERE id AND user_id` in a transaction that also reads the images it
   * replaces. A page deleted meanwhile stays deleted (404), and the new files go with it.
   */
  async update(
    actor: Actor,
    id: number,
    dto: UpdateSplashPageDto,
    uploads: UploadedFiles,
  ): Promise<{ id: number }> {
    await this.findOwned(actor, id);
    const images = await this.storeImages(uploads);
    const newImages = imageChanges(dto, images.stored);
    const before = await this.pages
      .updateOwned(actor.ownerId, id, (page) => ({
        ...fieldChanges(dto),
        ...newImages,
        settings: applySettings({ ...page.settings }, dto),
        last_datetime: this.clock.now(),
      }))
      .catch(async (e: unknown) => {
        await this.files.remove(images.created);
        throw e;
      });
    if (before === null) {
      await this.files.remove(images.created);
      throw new NotFoundError('splash_page_not_found', 'splash page');
    }
    await this.files.remove(
      SPLASH_IMAGE_FIELDS.filter((f) => newImages[f] !== undefined).map((f) => before[f]),
    );
    this.emitChanged(await this.pages.linksUsing(actor.ownerId, id));
    return { id };
  }

  /** The page, its images, and its place on links (they go straight to their destination). */
  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    const deleted = await this.pages.deleteOwnedDetaching(actor.ownerId, id);
    if (deleted === null) {
      throw new NotFoundError('splash_page_not_found', 'splash page');
    }
    this.emitChanged(deleted.links);
    await this.files.remove(SPLASH_IMAGE_FIELDS.map((f) => deleted.page[f]));
    return { id };
  }

  /** Validates every upload first, then writes; on any failure nothing new stays on disk. */
  private async storeImages(
    uploads: UploadedFiles,
  ): Promise<{ stored: Partial<Images>; created: string[] }> {
    const fresh: Partial<Record<SplashImage, Buffer>> = {};
    const problems: AppError[] = [];
    await Promise.all(
      SPLASH_IMAGE_FIELDS.map(async (field) => {
        const file = uploads[field];
        if (file) {
          try {
            fresh[field] = await this.files.normalize(field, file);
          } catch (e) {
            problems.push(e as AppError);
          }
        }
      }),
    );
    if (problems.length > 0) {
      throw new AppError(
        'validation_failed',
        problems.flatMap((p) => p.problems),
      );
    }
    const stored: Partial<Images> = {};
    const created: string[] = [];
    try {
      for (const field of SPLASH_IMAGE_FIELDS) {
        const image = fresh[field];
        if (image) {
          const name = await this.files.write(image);
          stored[field] = name;
          created.push(name);
        }
      }
    } catch (e) {
      await this.files.remove(created);
      throw e;
    }
    return { stored, created };
  }

  /** The edge caches links with their splash page compiled in: drop every link that shows it. */
  private emitChanged(links: LinkAddress[]): void {
    for (const link of links) {
      const event: LinkChangedEvent = {
        linkId: link.id,
        domainId: link.domain_id,
        alias: link.url,
      };
      this.events.emit(LINK_CHANGED, event);
    }
  }

  private async findOwned(actor: Actor, id: number): Promise<SplashPageEntity> {
    const page = await this.pages.findOwned(actor.ownerId, id);
    if (!page) {
      throw new NotFoundError('splash_page_not_found', 'splash page');
    }
    return page;
  }
}

function emptySettings(): SplashPageSettings {
  return {
    secondary_button_name: null,
    secondary_button_url: null,
    custom_css: null,
    custom_js: null,
    ads_header: null,
    ads_footer: null,
  };
}

/** The plain columns that were sent; an empty text clears. */
function fieldChanges(dto: UpdateSplashPageDto): SplashPageChanges {
  const changes: SplashPageChanges = {};
  if (dto.name !== undefined) changes.name = dto.name;
  if (dto.color !== undefined) changes.color = dto.color;
  if (dto.title !== undefined) changes.title = dto.title || null;
  if (dto.description !== undefined) changes.description = dto.description || null;
  if (dto.link_unlock_seconds !== undefined) changes.link_unlock_seconds = dto.link_unlock_seconds;
  if (dto.auto_redirect !== undefined) changes.auto_redirect = dto.auto_redirect;
  return changes;
}

/** The image columns to write: a new file's name, or null for `<field>_remove=1`. */
function imageChanges(dto: UpdateSplashPageDto, stored: Partial<Images>): Partial<Images> {
  const changes: Partial<Images> = {};
  for (const field of SPLASH_IMAGE_FIELDS) {
    const name = stored[field];
    if (name !== undefined) {
      changes[field] = name;
    } else if (dto[`${field}_remove`] === true) {
      changes[field] = null;
    }
  }
  return changes;
}

/** Sent fields replace stored ones; an empty value clears. */
function applySettings(settings: SplashPageSettings, dto: UpdateSplashPageDto): SplashPageSettings {
  for (const field of SETTINGS_FIELDS) {
    const value = dto[field];
    if (value !== undefined) {
      settings[field] = value || null;
    }
  }
  return settings;
}
