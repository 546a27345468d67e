import { Injectable } from '@nestjs/common';
import { Actor } from '@app/auth';
import { PlanLimits } from '@app/billing';
import { AppError, Clock, ListQuery, NotFoundError, Paginated, UploadedFiles } from '@app/common';
import { Db, ProjectsRepository, QrCodeEntity, QrCodesRepository } from '@app/database';
import { QrType, renderQr, withScanMarker } from '@app/qr';
import { CreateQrCodeDto } from './dto/create-qr-code.dto';
import { UpdateQrCodeDto } from './dto/update-qr-code.dto';
import { QrCodeResponse, toQrCodeResponse } from './qr-code.mapper';
import { QrFiles } from './qr-files';
import { QrScanTargets } from './qr-scan-targets';
import {
  checkContrast,
  checkFrameText,
  checkStandardLevel,
  mergeSettings,
  renderOptions,
  renderProblem,
} from './qr-settings';

const UPDATE_ATTEMPTS = 3;

export const QR_IMAGE_FIELDS = {
  logo: 'qr_code_logo',
  background: 'qr_code_background',
  foreground: 'qr_code_foreground',
} as const;
type ImageSlot = keyof typeof QR_IMAGE_FIELDS;
const SLOTS = Object.keys(QR_IMAGE_FIELDS) as ImageSlot[];

@Injectable()
export class QrCodesService {
  constructor(
    private readonly db: Db,
    private readonly limits: PlanLimits,
    private readonly qrCodes: QrCodesRepository,
    private readonly projects: ProjectsRepository,
    private readonly files: QrFiles,
    private readonly clock: Clock,
    private readonly targets: QrScanTargets,
  ) {}

  async list(actor: Actor, query: ListQuery): Promise<Paginated<QrCodeResponse>> {
    return (await this.qrCodes.listOwned(actor.ownerId, query)).map((q) =>
      toQrCodeResponse(q, this.files),
    );
  }

  async get(actor: Actor, id: number): Promise<QrCodeResponse> {
    return toQrCodeResponse(await this.findOwned(actor, id), this.files);
  }

  async create(
    actor: Actor,
    dto: CreateQrCodeDto,
    uploads: UploadedFiles,
  ): Promise<{ id: number }> {
    const projectId = await this.projectId(actor, dto.project_id ?? 0);
    // The scan marker names the code's id, which the insert gives: a code of one of the owner's
    // links is rendered once more with it (as an update that leaves last_datetime alone).
    const written = await this.render(actor, null, dto.type, null, dto, uploads, null);
    let id: number;
    try {
      id = await this.db.write(async () => {
        await this.limits.check(actor.ownerId, { qr_codes: 1 });
        return this.qrCodes.insert({
          user_id: actor.ownerId,
          project_id: projectId,
          type: dto.type,
          name: dto.name,
          ...written.row,
          scans: 0,
          datetime: this.clock.now(),
          last_datetime: null,
        });
      });
    } catch (e) {
      await this.files.remove(written.files.created);
      throw e;
    }
    if (written.scanTarget !== null) {
      try {
        await this.apply(actor, id, {}, {}, false);
      } catch (e) {
        // Not created after all: a code that cannot carry its marker is refused as a whole.
        const row = await this.qrCodes.findOwned(actor.ownerId, id);
        await this.qrCodes.deleteOwned(actor.ownerId, id);
        if (row) await this.files.remove(this.filesOf(row));
        throw e;
      }
    }
    return { id };
  }

  /**
   * Each attempt renders from the row as read and writes only if the row is still that one (see
   * QrCodesRepository.updateOwnedIf); a concurrent update or delete makes it start again, a few
   * times before giving up with 409. Files of the row as read are removed only once the row no
   * longer names them, so no committed row ever points at a deleted file.
   */
  update(
    actor: Actor,
    id: number,
    dto: UpdateQrCodeDto,
    uploads: UploadedFiles,
  ): Promise<{ id: number }> {
    return this.apply(actor, id, dto, uploads, true);
  }

  /** An update; `touch` false leaves last_datetime as it is (a create adding the scan marker). */
  private async apply(
    actor: Actor,
    id: number,
    dto: UpdateQrCodeDto,
    uploads: UploadedFiles,
    touch: boolean,
  ): Promise<{ id: number }> {
    for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt += 1) {
      const qr = await this.findOwned(actor, id);
      const projectId =
        dto.project_id === undefined ? qr.project_id : await this.projectId(actor, dto.project_id);
      const type = (dto.type ?? qr.type) as QrType;
      const written = await this.render(actor, id, type, qr, dto, uploads, qr);
      const changes = {
        ...written.row,
        type,
        name: dto.name ?? qr.name,
        project_id: projectId,
        last_datetime: touch ? this.clock.now() : qr.last_datetime,
      };
      let applied: boolean;
      try {
        applied = await this.qrCodes.updateOwnedIf(actor.ownerId, id, qr.qr_code, changes);
      } catch (e) {
        await this.files.remove(written.files.created);
        throw e;
      }
      if (!applied) {
        await this.files.remove(written.files.created);
        continue;
      }
      const now = new Set(this.filesOf({ ...qr, ...changes }));
      await this.files.remove(this.filesOf(qr).filter((name) => !now.has(name)));
      return { id };
    }
    await this.findOwned(actor, id);
    throw new AppError(
      'conflict',
      'The QR code was changed by other requests while this one was being applied; send it again.',
    );
  }

  /** The code and its files: the rendered SVG and PNG and every uploaded image. */
  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    const qr = await this.findOwned(actor, id);
    if (!(await this.qrCodes.deleteOwned(actor.ownerId, id))) {
      throw new NotFoundError('qr_code_not_found', 'QR code');
    }
    await this.files.remove(this.filesOf(qr));
    return { id };
  }

  /** Every file a row names: the rendered SVG and PNG and the uploaded images. */
  private filesOf(
    qr: Pick<
      QrCodeEntity,
      'qr_code' | 'qr_code_logo' | 'qr_code_background' | 'qr_code_foreground'
    >,
  ): Array<string | null> {
    return [
      ...this.files.renderedFiles(qr.qr_code),
      qr.qr_code_logo,
      qr.qr_code_background,
      qr.qr_code_foreground,
    ];
  }

  /**
   * Validates, renders and writes the files of a code; on any failure nothing stays on disk. A
   * code of type url whose URL is one of the owner's links (`scanTarget`) encodes it with the
   * scan marker of code `id` (none yet on a create, which renders again once it has the id).
   */
  private async render(
    actor: Actor,
    id: number | null,
    type: QrType,
    previous: QrCodeEntity | null,
    dto: Partial<CreateQrCodeDto>,
    uploads: UploadedFiles,
    current: QrCodeEntity | null,
  ) {
    const { settings, embedded: content } = mergeSettings(
      type,
      previous?.settings ?? null,
      previous?.type ?? null,
      dto,
      this.clock.now(),
    );
    const scanTarget = type === 'url' ? await this.targets.linkOf(actor.ownerId, content) : null;
    const marked = scanTarget !== null && id !== null;
    const embedded = marked ? withScanMarker(content, id) : content;
    checkContrast(settings);
    checkFrameText(settings);
    checkStandardLevel(type, settings);
    const normalized: Partial<Record<ImageSlot, Buffer>> = {};
    const problems: AppError[] = [];
    await Promise.all(
      SLOTS.map(async (slot) => {
        const file = uploads[QR_IMAGE_FIELDS[slot]];
        if (file) {
          try {
            normalized[slot] = await this.files.normalizeImage(file);
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
    const created: string[] = [];
    try {
      const names = {} as Record<ImageSlot, string | null>;
      const images = {} as Record<ImageSlot, Buffer | null>;
      for (const slot of SLOTS) {
        const removed =
          (dto as Record<string, unknown>)[`${QR_IMAGE_FIELDS[slot]}_remove`] === true;
        const stored = current?.[QR_IMAGE_FIELDS[slot]] ?? null;
        const fresh = normalized[slot];
        if (fresh) {
          names[slot] = await this.files.write(fresh, 'png');
          created.push(names[slot]);
          images[slot] = fresh;
        } else if (stored && !removed && (images[slot] = await this.files.readIfExists(stored))) {
          // A stored image that is gone was removed by an update committed since this row was
          // read (the conditional write then fails and the update starts again), or lost from
          // the disk: either way the code is rendered without it.
          names[slot] = stored;
        } else {
          names[slot] = null;
          images[slot] = null;
        }
      }
      const rendered = await renderQr(renderOptions(type, settings, embedded, images)).catch(
        (e: unknown) => {
          throw renderProblem(type, e, names.logo !== null);
        },
      );
      const svgName = await this.files.writeRendered(rendered.svg, rendered.png);
      created.push(...this.files.renderedFiles(svgName));
      return {
        row: {
          settings,
          embedded_data: embedded,
          qr_code: svgName,
          qr_code_logo: names.logo,
          qr_code_background: names.background,
          qr_code_foreground: names.foreground,
          is_readable: rendered.isReadable,
          link_id: marked ? scanTarget : null,
        },
        scanTarget,
        files: { created },
      };
    } catch (e) {
      await this.files.remove(created);
      throw e;
    }
  }

  /** 0 is no project. */
  private async projectId(actor: Actor, id: number): Promise<number | null> {
    if (id === 0) {
      return null;
    }
    if (!(await this.projects.findOwned(actor.ownerId, id))) {
      throw new AppError(
        'invalid_reference',
        'project_id is not one of your projects.',
        'project_id',
      );
    }
    return id;
  }

  private async findOwned(actor: Actor, id: number): Promise<QrCodeEntity> {
    const qr = await this.qrCodes.findOwned(actor.ownerId, id);
    if (!qr) {
      throw new NotFoundError('qr_code_not_found', 'QR code');
    }
    return qr;
  }
}
