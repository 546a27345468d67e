import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { COUNTER_TRANSFORMER } from '../counter-column';
import { UserEntity } from '../users/user.entity';

/**
 * A payment recorded from a processor's webhook (or by the operator). Amounts are whole numbers of
 * the currency's minor unit (cents; yen; fils), so they never pass through floating point.
 */
@Entity('payments')
@Index(['processor', 'payment_id'], { unique: true })
@Index(['user_id', 'id'])
@Index(['processor', 'processor_subscription_id'])
@Index(['processor', 'processor_customer_id'])
export class PaymentEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The account paid for; null while the payment matches no user (`payment:list --unmatched`). */
  @Column({ type: Number, nullable: true })
  user_id!: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  /** The plan paid for; null when the payment matched no plan. */
  @Column({ type: Number, nullable: true })
  plan_id!: number | null;

  /** `stripe`, `paddle`, `lemonsqueezy`, `offline_payment`. */
  @Column({ type: String, length: 32 })
  processor!: string;

  /** The processor's own id of the payment; unique per processor, so a replayed webhook writes nothing. */
  @Column({ type: String, length: 255 })
  payment_id!: string;

  /** `one_time` or `recurring`. */
  @Column({ type: String, length: 16 })
  type!: string;

  /** `monthly`, `quarterly`, `biannual`, `annual` or `lifetime`. */
  @Column({ type: String, length: 16 })
  frequency!: string;

  @Column({ type: String, length: 254 })
  email!: string;

  @Column({ type: String, length: 128, nullable: true })
  name!: string | null;

  /** ISO 4217, upper case. */
  @Column({ type: String, length: 3 })
  currency!: string;

  @Column({ type: 'bigint', transformer: COUNTER_TRANSFORMER })
  base_amount!: number;

  @Column({ type: 'bigint', transformer: COUNTER_TRANSFORMER })
  discount_amount!: number;

  @Column({ type: 'bigint', transformer: COUNTER_TRANSFORMER })
  total_amount!: number;

  /** The discount code used, if any. */
  @Column({ type: String, length: 64, nullable: true })
  code!: string | null;

  /** true once paid; false once fully refunded. */
  @Column({ type: Boolean })
  status!: boolean;

  /**
   * Minor units refunded so far: a partial refund is recorded here and leaves `status` true; a
   * full refund makes it `total_amount` and `status` false (docs/billing.md, "Refunds").
   */
  @Column({ type: 'bigint', transformer: COUNTER_TRANSFORMER, default: 0 })
  refunded_amount!: number;

  /**
   * The processor's subscription the payment belongs to (Stripe `sub_…`, Paddle `sub_…`, Lemon
   * Squeezy's subscription id): a later payment of it goes to the same user.
   */
  @Column({ type: String, length: 255, nullable: true })
  processor_subscription_id!: string | null;

  /** The processor's customer who paid (Stripe `cus_…`, Paddle `ctm_…`, Lemon Squeezy's id). */
  @Column({ type: String, length: 255, nullable: true })
  processor_customer_id!: string | null;

  /**
   * The end of the period paid for, when the processor says (a Stripe invoice line's
   * `period.end`); null: the frequency decides.
   */
  @Column({ type: Date, nullable: true })
  period_end!: Date | null;

  @Column({ type: Date })
  datetime!: Date;
}
