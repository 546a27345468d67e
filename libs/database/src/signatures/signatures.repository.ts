import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Db } from '../engine/db';
import { OwnedRepository } from '../owned.repository';
import { SignatureEntity } from './signature.entity';

@Injectable()
export class SignaturesRepository extends OwnedRepository<SignatureEntity> {
  constructor(@InjectRepository(SignatureEntity) repo: Repository<SignatureEntity>, db: Db) {
    super(repo, db);
  }

  /** The public preview page is the one lookup that is not owner-scoped: the token is the key. */
  findByPreviewToken(token: string): Promise<SignatureEntity | null> {
    return this.repo.findOneBy({ preview_token: token });
  }
}
