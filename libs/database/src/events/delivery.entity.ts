import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import { NotificationHandlerEntity } from '../notification-handlers/notification-handler.entity';
import { OutboxEventEntity } from './outbox-event.entity';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event to one handler: its attempts, its next try and how the last one went. */
@Entity('deliveries')
@Unique(['event_id', 'handler_id'])
@Index(['status', 'next_attempt_at'])
export class DeliveryEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The public id (`msg_…`): the `webhook-id` header, for receivers to de-duplicate. */
  @Index({ unique: true })
  @Column({ type: String, length: 40 })
  uid!: string;

  @Column({ type: Number })
  event_id!: number;

  @ManyToOne(() => OutboxEventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  outboxEvent?: OutboxEventEntity;

  @Index()
  @Column({ type: Number })
  handler_id!: number;

  @ManyToOne(() => NotificationHandlerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'handler_id' })
  handler?: NotificationHandlerEntity;

  /** The event's name, kept here for the log's filter. */
  @Column({ type: String, length: 64 })
  event!: string;

  @Column({ type: String, length: 16, default: 'pending' })
  status!: DeliveryStatus;

  @Column({ type: Number, default: 0 })
  attempts!: number;

  /** When the next attempt is due (pending only). */
  @Column({ type: Date, nullable: true })
  next_attempt_at!: Date | null;

  /** A worker holds this delivery until then; after it, another worker may take it. */
  @Column({ type: Date, nullable: true })
  lease_until!: Date | null;

  @Column({ type: Number, nullable: true })
  last_status_code!: number | null;

  @Column({ type: Number, nullable: true })
  last_latency_ms!: number | null;

  @Column({ type: String, length: 512, nullable: true })
  last_error!: string | null;

  @Column({ type: Date, nullable: true })
  delivered_at!: Date | null;

  @Column({ type: Date })
  datetime!: Date;

  /** The last attempt. */
  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
}
