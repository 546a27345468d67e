import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { Db } from '../engine/db';
import { RowReader } from '../engine/row-reader';
import { Outbox, type RowEvents } from '../events/outbox';
import { LinkEntity } from '../links/link.entity';
import { IN_CHUNK, OwnedRepository, rowLock } from '../owned.repository';
import { holdClosedMonths } from '../statistics/stat-tables';
import { subtractLinksFromUser } from '../statistics/subtract-links';
import { emptyLinksInChunks } from '../visits/link-visits';
import { DomainEntity } from './domain.entity';

@Injectable()
export class DomainsRepository extends OwnedRepository<DomainEntity> {
  private readonly rows: RowReader<DomainEntity>;

  constructor(
    @InjectRepository(DomainEntity) repo: Repository<DomainEntity>,
    db: Db,
    private readonly outbox: Outbox,
  ) {
    super(repo, db);
    this.rows = new RowReader(db, repo);
  }

  /** The enabled domain serving this host, if any (at most one is enabled per host). */
  findEnabledByHost(host: string): Promise<DomainEntity | null> {
    // Asked for every destination URL a link write names (a link must not point back here).
    return this.rows.one('"host" = ? AND "is_enabled" = true', [host]);
  }

  /** The id of the owner's domain with this scheme (`https://`) and host, or null. */
  async findOwnedIdByAddress(
    ownerId: number,
    scheme: string,
    host: string,
  ): Promise<number | null> {
    const found = await this.repo.findOne({
      where: { user_id: ownerId, scheme, host },
      select: { id: true },
    });
    return found === null ? null : found.id;
  }

  /** Which of `hosts` are hosts of enabled domains, whoever owns them. */
  async enabledHosts(hosts: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < hosts.length; i += IN_CHUNK) {
      const rows = await this.repo.find({
        where: { host: In(hosts.slice(i, i + IN_CHUNK)), is_enabled: true },
        select: { id: true, host: true },
      });
      rows.forEach((row) => found.add(row.host));
    }
    return found;
  }

  findByHost(host: string): Promise<DomainEntity[]> {
    return this.repo.findBy({ host });
  }

  /** Saves the domain and, in the same transaction, the events the change raises. */
  saveRaising(domain: DomainEntity, events: RowEvents<DomainEntity>): Promise<DomainEntity> {
    return this.db.write(async () => {
      const saved = await this.writing.save(domain);
      await this.outbox.write(events.of([saved]), events.now);
      return saved;
    });
  }

  /**
   * Deletes the domain and its links in one transaction (their visits and statistics cascade with
   * them; their share of the account-wide statistics is subtracted). On SQLite its links are emptied
   * first, in chunks (emptyLinksInChunks).
   */
  override async deleteOwned(ownerId: number, id: number): Promise<boolean> {
    await emptyLinksInChunks(this.db, ownerId, { domainId: id });
    return this.db.write(async () => {
      // Before the links' row locks (see holdClosedMonths).
      await holdClosedMonths(this.db);
      const domain = await this.writing.findOneBy({ id, user_id: ownerId });
      if (!domain) {
        return false;
      }
      const linkRows = this.db.repository(LinkEntity);
      const links = await linkRows.find({
        where: { domain_id: id, user_id: ownerId },
        select: { id: true },
        order: { id: 'ASC' },
        ...rowLock(this.db),
      });
      await subtractLinksFromUser(
        this.db,
        ownerId,
        links.map((l) => l.id),
      );
      await linkRows.delete({ domain_id: id, user_id: ownerId });
      await this.writing.delete({ id, user_id: ownerId });
      return true;
    });
  }

  /** Enabled, verified custom domains after `afterId`, by id: what the daily re-check walks. */
  verifiedEnabled(afterId: number, limit: number): Promise<DomainEntity[]> {
    return this.repo
      .createQueryBuilder('d')
      .where('d.id > :afterId', { afterId })
      .andWhere('d.is_enabled = :on', { on: this.db.bindable(true) })
      .andWhere('d.verified_datetime IS NOT NULL')
      .orderBy('d.id', 'ASC')
      .take(limit)
      .getMany();
  }

  /** Stores the count of re-checks in a row that missed the record. */
  async setVerificationMisses(id: number, misses: number): Promise<void> {
    await this.db.write(() => this.writing.update({ id }, { verification_misses: misses }));
  }
}
