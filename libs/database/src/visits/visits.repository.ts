import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { LinkEntity } from '../links/link.entity';
import { VisitEntity } from './visit.entity';

export type NewVisit = Omit<VisitEntity, 'id' | 'link'>;

/** Rows per INSERT statement: below SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK = 500;

@Injectable()
export class VisitsRepository {
  constructor(@InjectRepository(VisitEntity) private readonly repo: Repository<VisitEntity>) {}

  /**
   * Writes a batch of visits and adds them to their links' `clicks` in one transaction: one
   * UPDATE per link per batch, so a popular link's row is not locked once per visit. Visits of
   * links deleted meanwhile are dropped. Returns the number of visits written.
   */
  async recordBatch(visits: NewVisit[]): Promise<number> {
    if (visits.length === 0) {
      return 0;
    }
    return this.repo.manager.transaction(async (em) => {
      const ids = [...new Set(visits.map((v) => v.link_id))];
      const existing = new Set(await this.existingLinkIds(em, ids));
      const kept = visits.filter((v) => existing.has(v.link_id));
      for (let i = 0; i < kept.length; i += INSERT_CHUNK) {
        await em.insert(VisitEntity, kept.slice(i, i + INSERT_CHUNK));
      }
      const perLink = new Map<number, number>();
      for (const v of kept) {
        perLink.set(v.link_id, (perLink.get(v.link_id) ?? 0) + 1);
      }
      for (const [linkId, count] of perLink) {
        await em.increment(LinkEntity, { id: linkId }, 'clicks', count);
      }
      return kept.length;
    });
  }

  private async existingLinkIds(em: EntityManager, ids: number[]): Promise<number[]> {
    const found: number[] = [];
    for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
      const rows = await em
        .createQueryBuilder(LinkEntity, 'l')
        .select('l.id', 'id')
        .where('l.id IN (:...ids)', { ids: ids.slice(i, i + INSERT_CHUNK) })
        .getRawMany<{ id: number }>();
      found.push(...rows.map((r) => Number(r.id)));
    }
    return found;
  }
}
