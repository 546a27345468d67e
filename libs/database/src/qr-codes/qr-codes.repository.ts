import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { OwnedRepository } from '../owned.repository';
import { QrCodeEntity } from './qr-code.entity';

@Injectable()
export class QrCodesRepository extends OwnedRepository<QrCodeEntity> {
  constructor(@InjectRepository(QrCodeEntity) repo: Repository<QrCodeEntity>) {
    super(repo);
  }
}
