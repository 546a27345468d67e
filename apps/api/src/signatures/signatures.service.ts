import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Actor } from '@app/auth';
import { PlanLimits } from '@app/billing';
import { AppError, Clock, ListQuery, NotFoundError, Paginated } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { Db, ProjectsRepository, SignatureEntity, SignaturesRepository } from '@app/database';
import {
  DEFAULT_SETTINGS,
  renderPreviewPage,
  renderSignature,
  SETTING_KEYS,
  SIGNATURE_TEMPLATES,
  type SignatureSettings,
  type SignatureTemplate,
} from '@app/signatures';
import { CreateSignatureDto } from './dto/create-signature.dto';
import { UpdateSignatureDto } from './dto/update-signature.dto';
import {
  parseStoredSettings,
  SignatureHtmlResponse,
  SignatureResponse,
  toSignatureResponse,
} from './signature.mapper';

export const PREVIEW_PATH = 'signatures/preview';

@Injectable()
export class SignaturesService {
  constructor(
    private readonly db: Db,
    private readonly limits: PlanLimits,
    private readonly signatures: SignaturesRepository,
    private readonly projects: ProjectsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(actor: Actor, query: ListQuery): Promise<Paginated<SignatureResponse>> {
    return (await this.signatures.listOwned(actor.ownerId, query)).map(toSignatureResponse);
  }

  async get(actor: Actor, id: number): Promise<SignatureResponse> {
    return toSignatureResponse(await this.findOwned(actor, id));
  }

  async create(actor: Actor, dto: CreateSignatureDto): Promise<{ id: number }> {
    const projectId = await this.ownedProjectId(actor, dto.project_id);
    const id = await this.db.write(async () => {
      await this.limits.check(actor.ownerId, { signatures: 1 });
      return this.signatures.insert({
        user_id: actor.ownerId,
        project_id: projectId ?? null,
        name: dto.name,
        template: dto.template ?? 'mars',
        settings: JSON.stringify(mergeSettings(DEFAULT_SETTINGS, dto)),
        // 24 random bytes: the public preview URL cannot be guessed or enumerated.
        preview_token: randomBytes(24).toString('base64url'),
        datetime: this.clock.now(),
        last_datetime: null,
      });
    });
    return { id };
  }

  async update(actor: Actor, id: number, dto: UpdateSignatureDto): Promise<{ id: number }> {
    const signature = await this.findOwned(actor, id);
    const projectId = await this.ownedProjectId(actor, dto.project_id);
    if (projectId !== undefined) {
      signature.project_id = projectId;
    }
    signature.name = dto.name ?? signature.name;
    signature.template = dto.template ?? signature.template;
    signature.settings = JSON.stringify(mergeSettings(parseStoredSettings(signature), dto));
    signature.last_datetime = this.clock.now();
    await this.signatures.save(signature);
    return { id };
  }

  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    if (!(await this.signatures.deleteOwned(actor.ownerId, id))) {
      throw new NotFoundError('signature_not_found', 'signature');
    }
    return { id };
  }

  async html(actor: Actor, id: number): Promise<SignatureHtmlResponse> {
    const signature = await this.findOwned(actor, id);
    return {
      html: this.render(signature),
      preview_url: `${this.config.appUrl}/${PREVIEW_PATH}/${signature.preview_token}`,
    };
  }

  /** The public preview page, or null when no signature has this token. */
  async previewPage(token: string): Promise<string | null> {
    if (!/^[A-Za-z0-9_-]{32}$/.test(token)) {
      return null;
    }
    const signature = await this.signatures.findByPreviewToken(token);
    return signature ? renderPreviewPage(signature.name, this.render(signature)) : null;
  }

  private render(signature: SignatureEntity): string {
    const template = (SIGNATURE_TEMPLATES as readonly string[]).includes(signature.template)
      ? (signature.template as SignatureTemplate)
      : 'mars';
    return renderSignature(template, parseStoredSettings(signature), this.config.appUrl);
  }

  /** undefined: not sent; null: 0 sent (no project); a number: a project of the owner. */
  private async ownedProjectId(
    actor: Actor,
    value: number | undefined,
  ): Promise<number | null | undefined> {
    if (value === undefined) {
      return undefined;
    }
    if (value === 0) {
      return null;
    }
    if (!(await this.projects.findOwned(actor.ownerId, value))) {
      throw new AppError(
        'invalid_reference',
        'project_id must be one of your projects.',
        'project_id',
      );
    }
    return value;
  }

  private async findOwned(actor: Actor, id: number): Promise<SignatureEntity> {
    const signature = await this.signatures.findOwned(actor.ownerId, id);
    if (!signature) {
      throw new NotFoundError('signature_not_found', 'signature');
    }
    return signature;
  }
}

/**
 * The settings keys present in the body replace the current ones; the rest stay. The DTO classes
 * get their settings properties from decorateSettingsFields, so they are read by key here.
 */
export function mergeSettings(
  current: Readonly<SignatureSettings>,
  body: object,
): SignatureSettings {
  const sent = body as Record<string, unknown>;
  const next: Record<string, unknown> = { ...current };
  for (const key of SETTING_KEYS) {
    if (sent[key] !== undefined) {
      next[key] = sent[key];
    }
  }
  return next as unknown as SignatureSettings;
}
