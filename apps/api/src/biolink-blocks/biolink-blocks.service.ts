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
  Problem,
  UploadedFile,
} from '@app/common';
import {
  BiolinkBlockEntity,
  BiolinkBlocksRepository,
  BiolinkBlockType,
  Db,
  LinksRepository,
  MAX_BLOCKS_PER_PAGE,
  NotificationHandlersRepository,
} from '@app/database';
import { BiolinkFiles } from '../links/biolink-files';
import { BiolinkBlockResponse, toBiolinkBlockResponse } from './biolink-block.mapper';
import { BlockSettings, buildBlockSettings } from './block-settings.validation';
import { CreateBiolinkBlockDto, UpdateBiolinkBlockDto } from './dto/biolink-block.dto';

/** The largest side an image block is stored at, in pixels. */
const IMAGE_SIDE = 1200;

@Injectable()
export class BiolinkBlocksService {
  constructor(
    private readonly db: Db,
    private readonly limits: PlanLimits,
    private readonly blocks: BiolinkBlocksRepository,
    private readonly links: LinksRepository,
    private readonly handlers: NotificationHandlersRepository,
    private readonly files: BiolinkFiles,
    private readonly events: EventEmitter2,
    private readonly clock: Clock,
  ) {}

  async list(actor: Actor, query: ListQuery): Promise<Paginated<BiolinkBlockResponse>> {
    return (await this.blocks.listOwned(actor.ownerId, query)).map((b) => this.toResponse(b));
  }

  async get(actor: Actor, id: number): Promise<BiolinkBlockResponse> {
    return this.toResponse(await this.findOwned(actor, id));
  }

  async create(
    actor: Actor,
    dto: CreateBiolinkBlockDto,
    image: UploadedFile | undefined,
  ): Promise<{ id: number }> {
    const link = await this.links.findOwned(actor.ownerId, dto.link_id);
    const problems: Problem[] = [];
    if (!link || link.type !== 'biolink') {
      problems.push({
        title: 'link_id must be a bio page (type biolink) of yours.',
        field: 'link_id',
      });
    }
    const built = buildBlockSettings(dto.type, dto as unknown as Record<string, unknown>, null);
    problems.push(...built.problems, ...(await this.handlerProblems(actor, built.settings)));
    problems.push(...imageProblems(dto.type, image, true));
    if (problems.length > 0 || !link) {
      throw new AppError('validation_failed', problems);
    }
    const count = await this.blocks.countForLink(link.id);
    if (count >= MAX_BLOCKS_PER_PAGE) {
      throw new AppError('too_many_blocks', [
        {
          title: `A bio page can have at most ${MAX_BLOCKS_PER_PAGE} blocks; this one has ${count}.`,
          field: 'link_id',
        },
      ]);
    }
    if (image) {
      built.settings.image = await this.files.store('image', IMAGE_SIDE, image);
    }
    let id: number;
    try {
      const order = dto.order ?? (await this.blocks.nextOrder(link.id));
      id = await this.db.write(async () => {
        await this.limits.check(actor.ownerId, { biolink_blocks: 1 });
        return this.blocks.insert({
          user_id: actor.ownerId,
          link_id: link.id,
          type: dto.type,
          settings: JSON.stringify(built.settings),
          order,
          is_enabled: dto.is_enabled ?? true,
          clicks: 0,
          datetime: this.clock.now(),
          last_datetime: null,
        });
      });
    } catch (error) {
      // A refused or failed write leaves no stored image behind.
      await this.files.remove([
        typeof built.settings.image === 'string' ? built.settings.image : null,
      ]);
      throw error;
    }
    await this.pageChanged(actor, link.id);
    return { id };
  }

  async update(
    actor: Actor,
    id: number,
    dto: UpdateBiolinkBlockDto,
    image: UploadedFile | undefined,
  ): Promise<{ id: number }> {
    const block = await this.findOwned(actor, id);
    const type = block.type as BiolinkBlockType;
    const current = JSON.parse(block.settings) as BlockSettings;
    const built = buildBlockSettings(type, dto as unknown as Record<string, unknown>, current);
    const problems = [
      ...built.problems,
      ...(await this.handlerProblems(actor, built.settings)),
      ...imageProblems(type, image, false),
    ];
    if (problems.length > 0) {
      throw new AppError('validation_failed', problems);
    }
    const previousImage = typeof current.image === 'string' ? current.image : null;
    if (type === 'image') {
      built.settings.image = image
        ? await this.files.store('image', IMAGE_SIDE, image)
        : previousImage;
    }
    block.settings = JSON.stringify(built.settings);
    block.order = dto.order ?? block.order;
    block.is_enabled = dto.is_enabled ?? block.is_enabled;
    block.last_datetime = this.clock.now();
    await this.blocks.save(block);
    if (image) {
      await this.files.remove([previousImage]);
    }
    await this.pageChanged(actor, block.link_id);
    return { id };
  }

  /** The block goes; the data it collected stays (the owner's leads, with their ids). */
  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    const block = await this.findOwned(actor, id);
    if (!(await this.blocks.deleteOwned(actor.ownerId, id))) {
      throw new NotFoundError('biolink_block_not_found', 'biolink block');
    }
    const settings = JSON.parse(block.settings) as BlockSettings;
    await this.files.remove([typeof settings.image === 'string' ? settings.image : null]);
    await this.pageChanged(actor, block.link_id);
    return { id };
  }

  /** The page's visitors see the change at once: the cached page is dropped. */
  private async pageChanged(actor: Actor, linkId: number): Promise<void> {
    const link = await this.links.findOwned(actor.ownerId, linkId);
    if (link) {
      const event: LinkChangedEvent = { linkId, domainId: link.domain_id, alias: link.url };
      this.events.emit(LINK_CHANGED, event);
    }
  }

  /** Every handler a collector names must be one of the caller's. */
  private async handlerProblems(actor: Actor, settings: BlockSettings): Promise<Problem[]> {
    const ids = settings.notification_handlers_ids;
    if (!Array.isArray(ids) || ids.length === 0) {
      return [];
    }
    const owned = await this.handlers.ownedIds(actor.ownerId, ids as number[]);
    const missing = (ids as number[]).filter((id) => !owned.has(id));
    return missing.length === 0
      ? []
      : [
          {
            title: `notification_handlers_ids: no notification handler of yours has the id ${missing.join(', ')}.`,
            field: 'notification_handlers_ids',
          },
        ];
  }

  private toResponse(block: BiolinkBlockEntity): BiolinkBlockResponse {
    return toBiolinkBlockResponse(block, (name) => this.files.url(name));
  }

  private async findOwned(actor: Actor, id: number): Promise<BiolinkBlockEntity> {
    const block = await this.blocks.findOwned(actor.ownerId, id);
    if (!block) {
      throw new NotFoundError('biolink_block_not_found', 'biolink block');
    }
    return block;
  }
}

function imageProblems(
  type: string,
  image: UploadedFile | undefined,
  creating: boolean,
): Problem[] {
  if (type !== 'image') {
    return image ? [{ title: 'image is only for blocks of type image.', field: 'image' }] : [];
  }
  return creating && !image
    ? [{ title: 'image is required for an image block.', field: 'image' }]
    : [];
}
