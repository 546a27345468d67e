import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ProjectEntity } from '../projects/project.entity';
import { UserEntity } from '../users/user.entity';

@Entity('signatures')
export class SignatureEntity {
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

  @Column({ type: String, length: 64 })
  name!: string;

  @Column({ type: String, length: 32 })
  template!: string;

  /** Every settings key of the API, as JSON text. */
  @Column({ type: 'text' })
  settings!: string;

  /** Random slug of the public preview page; unguessable, unique. */
  @Column({ type: String, length: 64, unique: true })
  preview_token!: string;

  @Column({ type: Date })
  datetime!: Date;

  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
}
