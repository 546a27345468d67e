import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/**
 * A custom domain. A host may be added by several users, but it can be enabled for only one of them:
 * enabling requires proof of control (a DNS TXT record), and the edge routes the host to the one
 * enabled row.
 */
@Entity('domains')
@Index(['user_id', 'host'], { unique: true })
// The database, not only the service, keeps a host enabled for one account at most (races included).
@Index('UQ_domains_enabled_host', ['host'], { unique: true, where: '"is_enabled" = true' })
export class DomainEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: Number })
  user_id!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: String, length: 8, default: 'https://' })
  scheme!: string;

  @Index()
  @Column({ type: String, length: 253 })
  host!: string;

  @Column({ type: String, length: 2048, default: '' })
  custom_index_url!: string;

  @Column({ type: String, length: 2048, default: '' })
  custom_not_found_url!: string;

  @Column({ type: Boolean, default: false })
  is_enabled!: boolean;

  /** The value the owner publishes in a TXT record to prove control of the host. */
  @Column({ type: String, length: 64 })
  verification_token!: string;

  @Column({ type: Date, nullable: true })
  verified_datetime!: Date | null;

  /** Daily re-checks in a row that did not find the TXT record; 3 disable the domain. */
  @Column({ type: Number, default: 0 })
  verification_misses?: number;

  @Column({ type: Date })
  datetime!: Date;

  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
}
