import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/** One entry of an account's log (`GET /v1/logs/`): what happened to the account, and when. */
@Entity('account_logs')
@Index(['user_id', 'id'])
export class AccountLogEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: Number })
  user_id!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  /** `api_key.created`, `domain.verified`, `links.imported`, … (docs/account-log.md). */
  @Column({ type: String, length: 64 })
  type!: string;

  /** What it concerns, as JSON: the key, domain, member or import summary. */
  @Column({ type: 'text' })
  data!: string;

  @Index()
  @Column({ type: Date })
  datetime!: Date;
}
