import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { LinkEntity } from '../links/link.entity';
import { OwnedRepository } from '../owned.repository';
import { DomainEntity } from './domain.entity';

@Injectable()
export class DomainsRepository extends OwnedRepository<DomainEntity> {
  constructor(@InjectRepository(DomainEntity) repo: Repository<DomainEntity>) {
    super(repo);
  }

  /** The enabled domain serving this host, if any (at most one is enabled per host). */
  findEnabledByHost(host: string): Promise<DomainEntity | null> {
    return this.repo.findOneBy({ host, is_enabled: true });
  }

  findByHost(host: string): Promise<DomainEntity[]> {
    return this.repo.findBy({ host });
  }

  /** Deletes the domain and its links in one transaction (their visits cascade with them). */
  override async deleteOwned(ownerId: number, id: number): Promise<boolean> {
    return this.repo.manager.transaction(async (em) => {
      const domain = await em.findOneBy(DomainEntity, { id, user_id: ownerId });
      if (!domain) {
        return false;
      }
      await em.delete(LinkEntity, { domain_id: id, user_id: ownerId });
      await em.delete(DomainEntity, { id, user_id: ownerId });
      return true;
    });
  }
}
