import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { OwnedRepository, rowLock } from '../owned.repository';
import { subtractLinksFromUser } from '../statistics/subtract-links';
import { LinkEntity } from './link.entity';

/** The columns an API update may write: never `clicks`, which only the visit recorder changes. */
export type LinkChanges = Partial<
  Pick<
    LinkEntity,
    | 'project_id'
    | 'domain_id'
    | 'splash_page_id'
    | 'url'
    | 'location_url'
    | 'settings'
    | 'password_hash'
    | 'is_enabled'
    | 'start_date'
    | 'end_date'
    | 'last_datetime'
  >
>;

@Injectable()
export class LinksRepository extends OwnedRepository<LinkEntity> {
  constructor(@InjectRepository(LinkEntity) repo: Repository<LinkEntity>) {
    super(repo);
  }

  /**
   * Deletes the link with its visits and statistics (they cascade), and takes its statistics out of
   * the account-wide totals, in one transaction.
   */
  override async deleteOwned(ownerId: number, id: number): Promise<boolean> {
    return this.repo.manager.transaction(async (em) => {
      const link = await em.findOne(LinkEntity, {
        where: { id, user_id: ownerId },
        select: { id: true },
        ...rowLock(em),
      });
      if (!link) {
        return false;
      }
      await subtractLinksFromUser(em, ownerId, [id]);
      await em.delete(LinkEntity, { id, user_id: ownerId });
      return true;
    });
  }

  /** The link answering `alias` on a domain (0 = main), whoever owns it: the visitor edge's lookup. */
  findByAlias(domainId: number, alias: string): Promise<LinkEntity | null> {
    return this.repo.findOneBy({ domain_id: domainId, url: alias });
  }

  /** The settings of every static link, whoever owns it: which site versions are in use. */
  async staticSettings(): Promise<string[]> {
    const rows = await this.repo.find({ where: { type: 'static' }, select: { settings: true } });
    return rows.map((row) => row.settings);
  }

  async aliasTaken(domainId: number, alias: string, exceptId?: number): Promise<boolean> {
    const found = await this.repo.findOne({
      where: { domain_id: domainId, url: alias },
      select: { id: true },
    });
    return found !== null && found.id !== exceptId;
  }

  /**
   * Writes only the given columns (so a concurrent visit flush's `clicks` increment is kept), and
   * only while the row still has the `settings` it had when the caller read it: an update computed
   * from an earlier read must not undo a concurrent one (a static site's replaced version above
   * all). False when no row was written: the link changed meanwhile, or is gone.
   */
  async updateOwnedIf(
    ownerId: number,
    id: number,
    readSettings: string,
    changes: LinkChanges,
  ): Promise<boolean> {
    const result = await this.repo.update(
      { id, user_id: ownerId, settings: readSettings },
      changes,
    );
    return (result.affected ?? 0) > 0;
  }
}
