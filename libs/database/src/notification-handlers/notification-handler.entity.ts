import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

@Entity('notification_handlers')
export class NotificationHandlerEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: Number })
  user_id!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: String, length: 64 })
  name!: string;

  @Column({ type: String, length: 32 })
  type!: string;

  /** The per-kind settings as JSON, encrypted with AES-256-GCM (SECRETS_KEY). */
  @Column({ type: 'text' })
  settings_encrypted!: string;

  @Column({ type: Boolean, default: true })
  is_enabled!: boolean;

  /** The catalogue events this handler receives, as a JSON array; null means all of them. */
  @Column({ type: 'text', nullable: true })
  events!: string | null;

  /**
   * The team through which a member created this handler (`X-Team-Id`), or null when the owner
   * created it directly. Such a handler never receives account events (isAccountEvent). Not a
   * foreign key: the mark outlives the team.
   */
  @Column({ type: Number, nullable: true })
  team_id!: number | null;

  /** Why the dispatcher disabled this handler (every delivery failing for 3 days), or null. */
  @Column({ type: String, length: 512, nullable: true })
  disabled_reason!: string | null;

  @Column({ type: Date })
  datetime!: Date;

  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
}
