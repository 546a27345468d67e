import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/**
 * One event of the transactional outbox (`docs/events.md`): written in the same transaction as the
 * change that causes it, then fanned out to the owner's notification handlers by the worker.
 */
@Entity('events')
@Index(['dispatched_at', 'id'])
export class OutboxEventEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The public id (`evt_…`), unique: receivers see it as the event's `id`. */
  @Index({ unique: true })
  @Column({ type: String, length: 40 })
  uid!: string;

  /** The catalogue name, e.g. `link.created`. */
  @Column({ type: String, length: 64 })
  event!: string;

  /** The workspace owner the event belongs to: only their handlers receive it. */
  @Index()
  @Column({ type: Number })
  owner_id!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id' })
  owner?: UserEntity;

  /** The event's `data` as JSON. */
  @Column({ type: 'text' })
  data!: string;

  /**
   * Handlers that get this event whatever their `events[]` subscription (a bio-page block picks its
   * handlers by id), as a JSON array of ids; null when only subscriptions decide.
   */
  @Column({ type: 'text', nullable: true })
  handler_ids!: string | null;

  @Column({ type: Date })
  created_at!: Date;

  /** When the dispatcher wrote this event's delivery rows; null while it waits for that. */
  @Column({ type: Date, nullable: true })
  dispatched_at!: Date | null;
}
