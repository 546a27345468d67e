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

  /** true once paid; false when refunded. */
  @Column({ type: Boolean })
  status!: boolean;

  @Column({ type: Date })
  datetime!: Date;
}
