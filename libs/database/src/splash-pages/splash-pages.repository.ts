import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Db } from '../engine/db';
import { LinkEntity } from '../links/link.entity';
import { OwnedRepository, rowLock } from '../owned.repository';
import { SplashPageEntity } from './splash-page.entity';

/** A link as its cache entry is named: enough to invalidate it. */
export interface LinkAddress {
  id: number;
  domain_id: number;
  url: string;
}

/** The columns an update may write. */
export type SplashPageChanges = Partial<
  Omit<SplashPageEntity, 'id' | 'user_id' | 'user' | 'datetime'>
>;

@Injectable()
export class SplashPagesRepository extends OwnedRepository<SplashPageEntity> {
  constructor(@InjectRepository(SplashPageEntity) repo: Repository<SplashPageEntity>, db: Db) {
    super(repo, db);
  }

  /** The links of this owner that show the splash page. */
  linksUsing(ownerId: number, id: number): Promise<LinkAddress[]> {
    return this.repo.manager.getRepository(LinkEntity).find({
      where: { user_id: ownerId, splash_page_id: id },
      select: { id: true, domain_id: true, url: true },
    });
  }

  /**
   * Reads the page of this owner and writes `change(page)` to it with `UPDATE … WHERE id AND
   * user_id`, in one transaction that holds the row (a concurrent update or delete waits), so the
   * changes are computed from the row they replace. Returns the page as it was before, or null
   * when this owner has no page with that id (nothing is written: a deleted page stays deleted).
   */
  updateOwned(
    ownerId: number,
    id: number,
    change: (page: SplashPageEntity) => SplashPageChanges,
  ): Promise<SplashPageEntity | null> {
    return this.db.write(async () => {
      const page = await this.lockOwned(ownerId, id);
      if (!page) {
        return null;
      }
      const result = await this.writing.update({ id, user_id: ownerId }, change(page));
      return (result.affected ?? 0) > 0 ? page : null;
    });
  }

  /**
   * Detaches the page from its links and deletes it in one transaction; returns the page as it was
   * (for its files) and the detached links (for cache invalidation), or null when no page of this
   * owner has that id.
   */
  deleteOwnedDetaching(
    ownerId: number,
    id: number,
  ): Promise<{ page: SplashPageEntity; links: LinkAddress[] } | null> {
    return this.db.write(async () => {
      const page = await this.lockOwned(ownerId, id);
      if (!page) {
        return null;
      }
      const links = this.db.repository(LinkEntity);
      const attached = await links.find({
        where: { user_id: ownerId, splash_page_id: id },
        select: { id: true, domain_id: true, url: true },
      });
      await links.update({ user_id: ownerId, splash_page_id: id }, { splash_page_id: null });
      const result = await this.writing.delete({ id, user_id: ownerId });
      return (result.affected ?? 0) > 0 ? { page, links: attached } : null;
    });
  }

  /** The page of this owner, row-locked until the write ends on PostgreSQL (see rowLock). */
  private lockOwned(ownerId: number, id: number): Promise<SplashPageEntity | null> {
    return this.writing.findOne({ where: { id, user_id: ownerId }, ...rowLock(this.db) });
  }
}
