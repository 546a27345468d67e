import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ListQuery, Paginated } from '@app/common';
import { Db } from '../engine/db';
import { applyListQuery } from '../owned.repository';
import { PaymentEntity } from './payment.entity';

@Injectable()
export class PaymentsRepository {
  constructor(
    @InjectRepository(PaymentEntity) private readonly repo: Repository<PaymentEntity>,
    private readonly db: Db,
  ) {}

  /** The payments' repository in the open write (the data source's outside one). */
  private get writing(): Repository<PaymentEntity> {
    return this.db.repository(PaymentEntity);
  }

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

  /** The payment with this id (in the open write, when there is one). */
  findById(id: number): Promise<PaymentEntity | null> {
    return this.writing.findOneBy({ id });
  }

  /** The payment a processor knows by this id (in the open write, when there is one). */
  findByProcessorId(processor: string, paymentId: string): Promise<PaymentEntity | null> {
    return this.writing.findOneBy({ processor, payment_id: paymentId });
  }

  /** Inserts a payment (in the open write, when there is one). */
  insert(values: Omit<PaymentEntity, 'id'>): Promise<PaymentEntity> {
    return this.db.write(() => this.writing.save(this.writing.create(values)));
  }

  save(payment: PaymentEntity): Promise<PaymentEntity> {
    return this.db.write(() => this.writing.save(payment));
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
}
