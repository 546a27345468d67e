import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Db } from '../engine/db';
import { OwnedRepository } from '../owned.repository';
import { QrCodeEntity } from './qr-code.entity';

@Injectable()
export class QrCodesRepository extends OwnedRepository<QrCodeEntity> {
  constructor(@InjectRepository(QrCodeEntity) repo: Repository<QrCodeEntity>, db: Db) {
    super(repo, db);
  }

  /**
   * Writes `changes` only if the row still names the rendered code it was read with. Every update
   * renders a new file name, so a row that changed meanwhile (or was deleted) is left alone and
   * the caller computes its update again on what is there now.
   */
  async updateOwnedIf(
    ownerId: number,
    id: number,
    readQrCode: string,
    changes: Partial<Omit<QrCodeEntity, 'id' | 'user_id'>>,
  ): Promise<boolean> {
    const result = await this.db.write(() =>
      this.writing.update(
        { id, user_id: ownerId, qr_code: readQrCode },
        changes as QueryDeepPartialEntity<QrCodeEntity>,
      ),
    );
    return (result.affected ?? 0) > 0;
  }
}
