import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Actor } from '@app/auth';
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
  LinkAddress,
  SplashPageEntity,
  SplashPageSettings,
  SplashPagesRepository,
} from '@app/database';
import { CreateSplashPageDto } from './dto/create-splash-page.dto';
import { UpdateSplashPageDto } from './dto/update-splash-page.dto';
import { SplashPageResponse, toSplashPageResponse } from './splash-page.mapper';
import { SPLASH_IMAGE_FIELDS, SplashFiles, SplashImage } from './splash-files';

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
    const images = await this.storeImages(dto, uploads, null);
    try {
      const id = await this.pages.insert({
        user_id: actor.ownerId,
        name: dto.name,
        title: dto.title || null,
        description: dto.description || null,
        link_unlock_seconds: dto.link_unlock_seconds ?? 5,
        auto_redirect: dto.auto_redirect ?? false,
        settings,
        ...images.row,
        datetime: this.clock.now(),
        last_datetime: null,
      });
      return { id };
    } catch (e) {
      await this.files.remove(images.created);
      throw e;
    }
  }

  /** Every field is updated when sent, custom CSS/JS and ads included (the origin ignored those). */
  async update(
    actor: Actor,
    id: number,
    dto: UpdateSplashPageDto,
    uploads: UploadedFiles,
  ): Promise<{ id: number }> {
    const page = await this.findOwned(actor, id);
    const before = SPLASH_IMAGE_FIELDS.map((f) => page[f]);
    const images = await this.storeImages(dto, uploads, page);
    Object.assign(page, images.row, {
      name: dto.name ?? page.name,
      title: dto.title === undefined ? page.title : dto.title || null,
      description: dto.description === undefined ? page.description : dto.description || null,
      link_unlock_seconds: dto.link_unlock_seconds ?? page.link_unlock_seconds,
      auto_redirect: dto.auto_redirect ?? page.auto_redirect,
      settings: applySettings({ ...page.settings }, dto),
      last_datetime: this.clock.now(),
    });
    try {
      await this.pages.save(page);
    } catch (e) {
      await this.files.remove(images.created);
      throw e;
    }
    const now = new Set(SPLASH_IMAGE_FIELDS.map((f) => page[f]));
    await this.files.remove(before.filter((name) => !now.has(name)));
    this.emitChanged(await this.pages.linksUsing(actor.ownerId, id));
    return { id };
  }

  /** The page, its images, and its place on links (they go straight to their destination). */
  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    const page = await this.findOwned(actor, id);
    const detached = await this.pages.deleteOwnedDetaching(actor.ownerId, id);
    if (detached === null) {
      throw new NotFoundError('splash_page_not_found', 'splash page');
    }
    this.emitChanged(detached);
    await this.files.remove(SPLASH_IMAGE_FIELDS.map((f) => page[f]));
    return { id };
  }

  /** Validates every upload first, then writes; on any failure nothing new stays on disk. */
  private async storeImages(
    dto: UpdateSplashPageDto,
    uploads: UploadedFiles,
    current: SplashPageEntity | null,
  ): Promise<{ row: Images; created: string[] }> {
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
    const row = {} as Images;
    const created: string[] = [];
    try {
      for (const field of SPLASH_IMAGE_FIELDS) {
        const image = fresh[field];
        if (image) {
          row[field] = await this.files.write(image);
          created.push(row[field]);
        } else if (dto[`${field}_remove`] === true) {
          row[field] = null;
        } else {
          row[field] = current?.[field] ?? null;
        }
      }
    } catch (e) {
      await this.files.remove(created);
      throw e;
    }
    return { row, created };
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
