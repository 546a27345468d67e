import { Injectable } from '@nestjs/common';
import { Actor, ApiKeysService } from '@app/auth';
import { AppError, ListQuery, Paginated, parseDateTime } from '@app/common';
import { ApiKeyResponse, CreatedApiKeyResponse, toApiKeyResponse } from './api-key.mapper';
import { CreateApiKeyDto } from './dto/create-api-key.dto';

/** A user's own API keys, through the API (the rules are ApiKeysService', shared with the CLI). */
@Injectable()
export class OwnApiKeysService {
  constructor(private readonly keys: ApiKeysService) {}

  async list(actor: Actor, query: ListQuery): Promise<Paginated<ApiKeyResponse>> {
    const page = await this.keys.listActive(actor.userId, query);
    return page.map((key) => toApiKeyResponse(key, actor.apiKeyId));
  }

  async create(actor: Actor, dto: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    let expiresAt: Date | undefined;
    if (dto.expiration_datetime) {
      const parsed = parseDateTime(dto.expiration_datetime);
      if (!parsed) {
        throw new AppError(
          'validation_failed',
          'expiration_datetime is not a real date and time.',
          'expiration_datetime',
        );
      }
      expiresAt = parsed;
    }
    const created = await this.keys.createFor(actor, {
      name: dto.name,
      scope: dto.scope,
      expiresAt,
    });
    return { ...toApiKeyResponse(created.key, actor.apiKeyId), api_key: created.apiKey };
  }

  async revoke(actor: Actor, id: number): Promise<{ id: number }> {
    await this.keys.revokeOwned(actor.userId, id);
    return { id };
  }
}
