import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

@Entity('projects')
export class ProjectEntity {
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

  @Column({ type: String, length: 7, default: '#000000' })
  color!: string;

  @Column({ type: Date })
  datetime!: Date;

  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
}
