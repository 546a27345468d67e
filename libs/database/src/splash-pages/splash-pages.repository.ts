import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { LinkEntity } from '../links/link.entity';
import { OwnedRepository } from '../owned.repository';
import { SplashPageEntity } from './splash-page.entity';

/** A link as its cache entry is named: enough to invalidate it. */
export interface LinkAddress {
  id: number;
  domain_id: number;
  url: string;
}

@Injectable()
export class SplashPagesRepository extends OwnedRepository<SplashPageEntity> {
  constructor(@InjectRepository(SplashPageEntity) repo: Repository<SplashPageEntity>) {
    super(repo);
  }

  /** The links of this owner that show the splash page. */
  linksUsing(ownerId: number, id: number): Promise<LinkAddress[]> {
    return this.repo.manager.getRepository(LinkEntity).find({
      where: { user_id: ownerId, splash_page_id: id },
      select: { id: true, domain_id: true, url: true },
    });
  }

  /**
   * Detaches the page from its links and deletes it in one transaction; returns the detached links
   * (for cache invalidation), or null when no page of this owner has that id.
   */
  async deleteOwnedDetaching(ownerId: number, id: number): Promise<LinkAddress[] | null> {
    return this.repo.manager.transaction(async (manager) => {
      const links = manager.getRepository(LinkEntity);
      const attached = await links.find({
        where: { user_id: ownerId, splash_page_id: id },
        select: { id: true, domain_id: true, url: true },
      });
      await links.update({ user_id: ownerId, splash_page_id: id }, { splash_page_id: null });
      const result = await manager.getRepository(SplashPageEntity).delete({ id, user_id: ownerId });
      return (result.affected ?? 0) > 0 ? attached : null;
    });
  }
}
