import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ListQuery, Paginated } from '@app/common';
import { Db } from '../engine/db';
import { applyListQuery } from '../owned.repository';
import { PaymentReferenceEntity } from './payment-reference.entity';
import { PaymentEntity } from './payment.entity';

/** An id a processor names a payment by, and what kind of id it is (`invoice`, `charge`, …). */
export interface PaymentRef {
  kind: string;
  value: string;
}

/** How a payment is linked to its payer at the processor. */
export type PayerLink = 'processor_subscription_id' | 'processor_customer_id';

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

  /**
   * The payment a processor names by any of `refs`: its own id, or an id learned as a reference
   * (in the open write, when there is one).
   */
  async findByAnyRef(
    processor: string,
    refs: readonly PaymentRef[],
  ): Promise<PaymentEntity | null> {
    for (const ref of refs) {
      const own = await this.findByProcessorId(processor, ref.value);
      if (own) return own;
    }
    const references = this.db.repository(PaymentReferenceEntity);
    for (const ref of refs) {
      const known = await references.findOneBy({ processor, kind: ref.kind, value: ref.value });
      if (known) {
        const payment = await this.findByProcessorId(processor, known.payment_key);
        if (payment) return payment;
      }
    }
    return null;
  }

  /**
   * Remembers that `refs` name the payment whose own id is `paymentKey` (recorded or not yet);
   * false when one of them was known already (a replay). An id already naming another payment
   * keeps naming it.
   */
  async addReferences(
    processor: string,
    paymentKey: string,
    refs: readonly PaymentRef[],
  ): Promise<boolean> {
    let fresh = true;
    await this.db.write(async () => {
      const references = this.db.repository(PaymentReferenceEntity);
      for (const ref of refs) {
        if (ref.value === paymentKey) continue;
        const key = { processor, kind: ref.kind, value: ref.value };
        if (await references.existsBy(key)) {
          fresh = false;
          continue;
        }
        // Another instance may learn it at the same moment (PostgreSQL): the first one stays.
        await this.db.manager
          .createQueryBuilder()
          .insert()
          .into(PaymentReferenceEntity)
          .values({ ...key, payment_key: paymentKey })
          .orIgnore()
          .execute();
      }
    });
    return fresh;
  }

  /**
   * The newest payment through `processor` of this subscription (or customer) that has a user:
   * whose user a later payment of the same payer is (in the open write, when there is one).
   */
  matchedByPayer(processor: string, link: PayerLink, value: string): Promise<PaymentEntity | null> {
    return this.writing
      .createQueryBuilder('p')
      .where('p.processor = :processor', { processor })
      .andWhere(`p.${link} = :value`, { value })
      .andWhere('p.user_id IS NOT NULL')
      .orderBy('p.id', 'DESC')
      .getOne();
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
   * The newest payment through `processor` with a plan, of the same subscription, else of the
   * same customer, else of the user (by id, else by email): what a renewal that names no price
   * renews.
   */
  async lastWithPlan(
    processor: string,
    payer: {
      subscriptionId: string | null;
      customerId: string | null;
      userId: number | null;
      email: string;
    },
  ): Promise<PaymentEntity | null> {
    const newest = (where: string, values: Record<string, unknown>) =>
      this.repo
        .createQueryBuilder('p')
        .where('p.processor = :processor', { processor })
        .andWhere('p.plan_id IS NOT NULL')
        .andWhere(where, values)
        .orderBy('p.id', 'DESC')
        .getOne();
    if (payer.subscriptionId !== null) {
      const same = await newest('p.processor_subscription_id = :s', { s: payer.subscriptionId });
      if (same) return same;
    }
    if (payer.customerId !== null) {
      const same = await newest('p.processor_customer_id = :c', { c: payer.customerId });
      if (same) return same;
    }
    if (payer.userId !== null) return newest('p.user_id = :userId', { userId: payer.userId });
    if (payer.email !== '') return newest('p.email = :email', { email: payer.email });
    return null;
  }

  all(): Promise<PaymentEntity[]> {
    return this.repo.find({ order: { id: 'ASC' } });
  }
}
