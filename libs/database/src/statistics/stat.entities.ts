import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { CounterColumn } from '../counter-column';
import { LinkEntity } from '../links/link.entity';
import { UserEntity } from '../users/user.entity';

/*
 * Statistics roll-ups, kept up to date by the visit writer in the same transaction as the raw
 * visits, so that reading statistics never scans visits.
 *
 * - Quarters: pageviews and unique visitors per UTC quarter hour (`bucket` = epoch seconds / 900).
 *   Every zone's days and hours begin on a quarter hour, so the overview is exact in any zone.
 * - Dimensions: pageviews per local day (`day` = days since 1970-01-01 in the owner's time zone
 *   when the visit was written) and dimension value. `value1..3` hold the value and the values it
 *   is nested under (referrer host > path, country > city, source > medium > campaign); '' is
 *   "none", so that the primary key can hold it.
 *
 * - Dimension months: the same per local month (months since January 1970), so that a long range
 *   reads a row per month and value instead of one per day. Complete up to the closed-months mark
 *   (ClosedMonthsEntity below, rollups/closed-months.ts); later months are read from the days.
 *
 * Each comes per link and per user (the account-wide totals, so that an account's statistics cost
 * the same whatever its number of links). Deleting a link subtracts it from its user's rows.
 */

@Entity('stats_link_quarters', { withoutRowid: true })
export class LinkQuarterStatEntity {
  @PrimaryColumn({ type: Number })
  link_id!: number;

  @PrimaryColumn({ type: Number })
  bucket!: number;

  @CounterColumn()
  pageviews!: number;

  @CounterColumn()
  visitors!: number;

  @ManyToOne(() => LinkEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'link_id' })
  link?: LinkEntity;
}

@Entity('stats_user_quarters', { withoutRowid: true })
export class UserQuarterStatEntity {
  @PrimaryColumn({ type: Number })
  user_id!: number;

  @PrimaryColumn({ type: Number })
  bucket!: number;

  @CounterColumn()
  pageviews!: number;

  @CounterColumn()
  visitors!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;
}

@Entity('stats_link_dimensions', { withoutRowid: true })
export class LinkDimensionStatEntity {
  @PrimaryColumn({ type: Number })
  link_id!: number;

  @PrimaryColumn({ type: String, length: 16 })
  dimension!: string;

  @PrimaryColumn({ type: Number })
  day!: number;

  @PrimaryColumn({ type: String, length: 253 })
  value1!: string;

  @PrimaryColumn({ type: String, length: 512 })
  value2!: string;

  @PrimaryColumn({ type: String, length: 128 })
  value3!: string;

  @CounterColumn()
  pageviews!: number;

  @ManyToOne(() => LinkEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'link_id' })
  link?: LinkEntity;
}

@Entity('stats_user_dimensions', { withoutRowid: true })
export class UserDimensionStatEntity {
  @PrimaryColumn({ type: Number })
  user_id!: number;

  @PrimaryColumn({ type: String, length: 16 })
  dimension!: string;

  @PrimaryColumn({ type: Number })
  day!: number;

  @PrimaryColumn({ type: String, length: 253 })
  value1!: string;

  @PrimaryColumn({ type: String, length: 512 })
  value2!: string;

  @PrimaryColumn({ type: String, length: 128 })
  value3!: string;

  @CounterColumn()
  pageviews!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;
}

@Entity('stats_link_dimension_months', { withoutRowid: true })
export class LinkDimensionMonthStatEntity {
  @PrimaryColumn({ type: Number })
  link_id!: number;

  @PrimaryColumn({ type: String, length: 16 })
  dimension!: string;

  @PrimaryColumn({ type: Number })
  month!: number;

  @PrimaryColumn({ type: String, length: 253 })
  value1!: string;

  @PrimaryColumn({ type: String, length: 512 })
  value2!: string;

  @PrimaryColumn({ type: String, length: 128 })
  value3!: string;

  @CounterColumn()
  pageviews!: number;

  @ManyToOne(() => LinkEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'link_id' })
  link?: LinkEntity;
}

@Entity('stats_user_dimension_months', { withoutRowid: true })
export class UserDimensionMonthStatEntity {
  @PrimaryColumn({ type: Number })
  user_id!: number;

  @PrimaryColumn({ type: String, length: 16 })
  dimension!: string;

  @PrimaryColumn({ type: Number })
  month!: number;

  @PrimaryColumn({ type: String, length: 253 })
  value1!: string;

  @PrimaryColumn({ type: String, length: 512 })
  value2!: string;

  @PrimaryColumn({ type: String, length: 128 })
  value3!: string;

  @CounterColumn()
  pageviews!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;
}

/**
 * How far the month tables are complete (closed-months.ts): one row (id 1). The visit writer adds
 * to the month rows only of months up to `months_closed_through`; a later month is read from the
 * day rows until StatisticsMonthsJob closes it, summing its day rows into month rows.
 */
@Entity('stats_closed_months')
export class ClosedMonthsEntity {
  @PrimaryColumn({ type: Number })
  id!: number;

  /** Months since January 1970. */
  @Column({ type: Number })
  months_closed_through!: number;
}
