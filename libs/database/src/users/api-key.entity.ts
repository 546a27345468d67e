import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/** What a key may do: `full`, everything its user may; `read`, GET requests only. */
export const API_KEY_SCOPES = ['full', 'read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** An API key. Only the SHA-256 of the key is stored; the key itself is shown once. */
@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: Number })
  user_id!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: String, length: 64, default: '' })
  name!: string;

  /** The first characters of the key, safe to show so a person can tell keys apart. */
  @Column({ type: String, length: 16 })
  prefix!: string;

  @Column({ type: String, length: 64, unique: true })
  key_hash!: string;

  @Column({ type: String, length: 8, default: 'full' })
  scope!: ApiKeyScope;

  @Column({ type: Date, nullable: true })
  expiration_datetime!: Date | null;

  @Column({ type: Date, nullable: true })
  revocation_datetime!: Date | null;

  @Column({ type: Date, nullable: true })
  last_used_datetime!: Date | null;

  @Column({ type: Date })
  datetime!: Date;
}
