import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Db } from '../engine/db';
import { OwnedRepository } from '../owned.repository';
import { BiolinkBlockEntity } from './biolink-block.entity';

@Injectable()
export class BiolinkBlocksRepository extends OwnedRepository<BiolinkBlockEntity> {
  constructor(@InjectRepository(BiolinkBlockEntity) repo: Repository<BiolinkBlockEntity>, db: Db) {
    super(repo, db);
  }

  /** The blocks of one bio page in page order (what its visitors see when enabled). */
  findForLink(linkId: number): Promise<BiolinkBlockEntity[]> {
    return this.repo.find({ where: { link_id: linkId }, order: { order: 'ASC', id: 'ASC' } });
  }

  /** One block of a page, whoever owns it (the visitor side knows the page, not the owner). */
  findOnLink(linkId: number, id: number): Promise<BiolinkBlockEntity | null> {
    return this.repo.findOneBy({ id, link_id: linkId });
  }

  /** How many blocks a page has, enabled or not. */
  countForLink(linkId: number): Promise<number> {
    return this.repo.countBy({ link_id: linkId });
  }

  /** The next `order` of a page: after its last block. */
  async nextOrder(linkId: number): Promise<number> {
    const row = await this.repo
      .createQueryBuilder('b')
      .select('MAX(b.order)', 'max')
      .where('b.link_id = :linkId', { linkId })
      .getRawOne<{ max: number | string | null }>();
    return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
  }

  /** Counts one click of a `link` block. */
  async countClick(id: number): Promise<void> {
    await this.db.write(() => this.writing.increment({ id }, 'clicks', 1));
  }
}
