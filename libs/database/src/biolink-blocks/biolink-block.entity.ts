import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CounterColumn } from '../counter-column';
import { LinkEntity } from '../links/link.entity';
import { UserEntity } from '../users/user.entity';

/**
 * The most blocks a bio page has (a fixed cap, not a plan setting: it bounds what one view of the
 * page costs, the same for every plan). Creates beyond it are refused; a page shows no more.
 */
export const MAX_BLOCKS_PER_PAGE = 100;

export const BIOLINK_BLOCK_TYPES = [
  'link',
  'heading',
  'paragraph',
  'image',
  'socials',
  'email_collector',
  'phone_collector',
  'contact_collector',
  'appointment_calendar',
] as const;
export type BiolinkBlockType = (typeof BIOLINK_BLOCK_TYPES)[number];

/** The block types whose visitors' submissions become collected data records. */
export const COLLECTOR_BLOCK_TYPES = [
  'email_collector',
  'phone_collector',
  'contact_collector',
  'appointment_calendar',
] as const;
export type CollectorBlockType = (typeof COLLECTOR_BLOCK_TYPES)[number];

/** The keys of a record's `data` for each kind of collector (origin-api.md §12), in that order. */
export const DATA_KEYS: Record<CollectorBlockType, readonly string[]> = {
  email_collector: ['email', 'name'],
  phone_collector: ['phone', 'name'],
  contact_collector: ['phone', 'email', 'message', 'name'],
  appointment_calendar: [
    'date',
    'start_time',
    'end_time',
    'duration_value',
    'duration_type',
    'email',
    'phone',
    'name',
    'message',
  ],
};

export function isCollectorType(type: string): type is CollectorBlockType {
  return (COLLECTOR_BLOCK_TYPES as readonly string[]).includes(type);
}

/**
 * One block of a bio page (a link of type `biolink`); deleted with its link. The per-type fields
 * are JSON text in `settings`; `clicks` counts the visitors who followed a `link` block.
 */
@Entity('biolink_blocks')
@Index(['link_id', 'order'])
export class BiolinkBlockEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: Number })
  user_id!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: Number })
  link_id!: number;

  @ManyToOne(() => LinkEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'link_id' })
  link?: LinkEntity;

  @Column({ type: String, length: 32 })
  type!: string;

  @Column({ type: 'text' })
  settings!: string;

  @Column({ type: Number, default: 0 })
  order!: number;

  @Column({ type: Boolean, default: true })
  is_enabled!: boolean;

  @CounterColumn({ default: 0 })
  clicks!: number;

  @Column({ type: Date })
  datetime!: Date;

  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
}
