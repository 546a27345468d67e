import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/** A browser's PushSubscription (its push service endpoint and keys), owned by a user. */
@Entity('push_subscribers')
@Index(['user_id', 'endpoint'], { unique: true })
export class PushSubscriberEntity {
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

  /** The push service URL the browser gave (https). */
  @Column({ type: String, length: 1024 })
  endpoint!: string;

  /** The browser's P-256 public key, base64url (65 bytes uncompressed). */
  @Column({ type: String, length: 128 })
  p256dh!: string;

  /** The browser's 16-byte authentication secret, base64url. */
  @Column({ type: String, length: 32 })
  auth!: string;

  @Column({ type: Date })
  datetime!: Date;

  /** The last push sent to it. */
  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
}
