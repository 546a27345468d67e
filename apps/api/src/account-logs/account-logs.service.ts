import { Injectable } from '@nestjs/common';
import { Actor } from '@app/auth';
import { ListQuery, Paginated } from '@app/common';
import { AccountLogsRepository } from '@app/database';
import { AccountLogResponse, toAccountLogResponse } from './account-log.mapper';

@Injectable()
export class AccountLogsService {
  constructor(private readonly logs: AccountLogsRepository) {}

  /** The caller's own account (the user the key belongs to), newest first by default. */
  async list(actor: Actor, query: ListQuery): Promise<Paginated<AccountLogResponse>> {
    return (await this.logs.listOwned(actor.userId, query)).map(toAccountLogResponse);
  }
}
