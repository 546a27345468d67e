import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, IsNull, Repository } from 'typeorm';
import { ListQuery, Paginated } from '@app/common';
import { applyListQuery } from '../owned.repository';
import { PaymentEntity } from './payment.entity';

@Injectable()
export class PaymentsRepository {
  constructor(@InjectRepository(PaymentEntity) private readonly repo: Repository<PaymentEntity>) {}

  /** The user's own payments (never a team's: payments are account-level). */
  async listOwned(userId: number, query: ListQuery): Promise<Paginated<PaymentEntity>> {
    const qb = this.repo.createQueryBuilder('r').where('r.user_id = :userId', { userId });
    applyListQuery(qb, query);
    const [items, total] = await qb.getManyAndCount();
    return new Paginated(items, total, query.page, query.resultsPerPage);
  }

  findOwned(userId: number, id: number): Promise<PaymentEntity | null> {
    return this.repo.findOneBy({ id, user_id: userId });
  }

  findById(id: number, em: EntityManager = this.repo.manager): Promise<PaymentEntity | null> {
    return em.findOneBy(PaymentEntity, { id });
  }

  findByProcessorId(
    processor: string,
    paymentId: string,
    em: EntityManager = this.repo.manager,
  ): Promise<PaymentEntity | null> {
    return em.findOneBy(PaymentEntity, { processor, payment_id: paymentId });
  }

  /** Payments that matched no user, oldest first: the operator assigns them (`payment:assign`). */
  unmatched(): Promise<PaymentEntity[]> {
    return this.repo.find({ where: { user_id: IsNull() }, order: { id: 'ASC' } });
  }

  /**
   * The newest payment through `processor` with a plan, of the user (by id, else by email): what a
   * renewal that names no price renews.
   */
  lastWithPlan(
    processor: string,
    userId: number | null,
    email: string,
  ): Promise<PaymentEntity | null> {
    const qb = this.repo
      .createQueryBuilder('p')
      .where('p.processor = :processor', { processor })
      .andWhere('p.plan_id IS NOT NULL');
    if (userId !== null) qb.andWhere('p.user_id = :userId', { userId });
    else if (email !== '') qb.andWhere('p.email = :email', { email });
    else return Promise.resolve(null);
    return qb.orderBy('p.id', 'DESC').getOne();
  }

  all(): Promise<PaymentEntity[]> {
    return this.repo.find({ order: { id: 'ASC' } });
  }

  /** The transaction's entity manager runs the work: a payment and its effects are written together. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.manager.transaction(work);
  }
}
