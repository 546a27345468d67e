import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/** A team: its owner invites members, who then act in the owner's workspace (X-Team-Id). */
@Entity('teams')
export class TeamEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The owner, whose workspace the members act in. */
  @Index()
  @Column({ type: Number })
  user_id!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: String, length: 64 })
  name!: string;

  @Column({ type: Date })
  datetime!: Date;

  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
}
