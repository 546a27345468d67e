import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Another id a processor may name a payment by (a Stripe payment intent or charge of an invoice,
 * a checkout session, a Paddle adjustment), pointing at the payment's own id
 * (`payments.payment_id`). It is not a foreign key on purpose: processors do not promise event
 * order, so an id can be learned (Stripe's `invoice_payment.paid`) before its payment is recorded.
 */
@Entity('payment_references')
@Index(['processor', 'kind', 'value'], { unique: true })
@Index(['processor', 'payment_key'])
export class PaymentReferenceEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** `stripe`, `paddle`, `lemonsqueezy`. */
  @Column({ type: String, length: 32 })
  processor!: string;

  /** What the id is: `payment_intent`, `charge`, `checkout_session`, `adjustment`, … */
  @Column({ type: String, length: 32 })
  kind!: string;

  @Column({ type: String, length: 255 })
  value!: string;

  /** The `payment_id` of the payment it names (which may not be recorded yet). */
  @Column({ type: String, length: 255 })
  payment_key!: string;
}
