import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A plan an operator sells or gives: its limits, its prices and the processors' price ids. */
@Entity('plans')
export class PlanEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: String, length: 64 })
  name!: string;

  /** The limits as JSON (PlanSettings; missing keys are unlimited). */
  @Column({ type: 'text' })
  settings!: string;

  /** Prices as JSON: `{ "currency": "EUR", "monthly": "9.99", "annual": "99.00", … }` (decimal strings). */
  @Column({ type: 'text' })
  prices!: string;

  /**
   * The processors' price ids as JSON, by processor and frequency:
   * `{ "stripe": { "monthly": "price_…" }, "paddle": { … }, "lemonsqueezy": { "annual": "12345" } }`.
   * A webhook without a plan in its metadata is matched to a plan by these.
   */
  @Column({ type: 'text' })
  price_ids!: string;

  @Column({ type: Date })
  datetime!: Date;

  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
}
