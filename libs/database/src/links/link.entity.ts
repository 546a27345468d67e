import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CounterColumn } from '../counter-column';
import { ProjectEntity } from '../projects/project.entity';
import { SplashPageEntity } from '../splash-pages/splash-page.entity';
import { UserEntity } from '../users/user.entity';

export const LINK_TYPES = ['link', 'walink', 'static', 'biolink'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export const DESTINATION_STATUSES = ['unknown', 'ok', 'broken'] as const;
export type DestinationStatus = (typeof DESTINATION_STATUSES)[number];

/**
 * A short link. `domain_id` is 0 for the main domain, so that (domain_id, url) can be unique in
 * both dialects (a NULL would not collide). A domain's links are deleted with the domain, in the
 * same transaction (DomainsRepository).
 */
@Entity('links')
@Index(['domain_id', 'url'], { unique: true })
export class LinkEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: Number })
  user_id!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Index()
  @Column({ type: Number, nullable: true })
  project_id!: number | null;

  @ManyToOne(() => ProjectEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @Column({ type: Number, default: 0 })
  domain_id!: number;

  /** The splash page visitors see before the destination; detached when the page is deleted. */
  @Index()
  @Column({ type: Number, nullable: true })
  splash_page_id!: number | null;

  @ManyToOne(() => SplashPageEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'splash_page_id' })
  splash_page?: SplashPageEntity;

  @Column({ type: String, length: 16 })
  type!: LinkType;

  /** The alias: the path of the short URL. */
  @Column({ type: String, length: 64 })
  url!: string;

  @Column({ type: String, length: 2048, nullable: true })
  location_url!: string | null;

  /** Type-specific settings as JSON text (see LinkSettings in the API's links context). */
  @Column({ type: 'text' })
  settings!: string;

  /** scrypt hash of the visitor password; never leaves the server. */
  @Column({ type: String, length: 255, nullable: true })
  password_hash!: string | null;

  @CounterColumn({ default: 0 })
  clicks!: number;

  /** Visits of bots, preview fetchers and HEAD requests: counted apart, never in `clicks`. */
  @CounterColumn({ default: 0 })
  bot_clicks!: number;

  @Column({ type: Boolean, default: true })
  is_enabled!: boolean;

  @Column({ type: Date, nullable: true })
  start_date!: Date | null;

  @Column({ type: Date, nullable: true })
  end_date!: Date | null;

  /**
   * The `end_date` for which `link.expired` was raised (the link-expiry job); a new end date
   * makes the link due again. Never shown in the API.
   */
  @Column({ type: Date, nullable: true })
  expired_event_end_date?: Date | null;

  @Column({ type: Date })
  datetime!: Date;

  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
  /** Link preview (issue 38): what chat apps and social sites show when they unfurl the link. */
  @Column({ type: String, length: 120, nullable: true })
  preview_title?: string | null;

  @Column({ type: String, length: 300, nullable: true })
  preview_description?: string | null;

  /** File name of the 1200x630 JPEG on the storage driver (image uploads). */
  @Column({ type: String, length: 255, nullable: true })
  preview_image?: string | null;

  /** Destination health (issue 38): 'unknown' until checked, then 'ok' or 'broken'. */
  @Column({ type: String, length: 16, default: 'unknown' })
  destination_status?: DestinationStatus;

  /** The last HTTP status the destination answered, null when it never answered. */
  @Column({ type: Number, nullable: true })
  destination_status_code?: number | null;

  @Column({ type: Date, nullable: true })
  destination_checked_datetime?: Date | null;

  /** Failed checks in a row; 3 make the link broken. Never shown in the API. */
  @Column({ type: Number, default: 0 })
  destination_failures?: number;
}
