import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CounterColumn } from '../counter-column';
import { ProjectEntity } from '../projects/project.entity';
import { UserEntity } from '../users/user.entity';

@Entity('qr_codes')
export class QrCodeEntity {
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

  @Column({ type: String, length: 16 })
  type!: string;

  @Column({ type: String, length: 64 })
  name!: string;

  /** Style and content settings as the API shows them (JSON). */
  @Column({ type: 'simple-json' })
  settings!: Record<string, unknown>;

  @Column({ type: 'text' })
  embedded_data!: string;

  /** Base name of the rendered image under uploads/qr-codes/ (`.svg` and `.png`). */
  @Column({ type: String, length: 128 })
  qr_code!: string;

  @Column({ type: String, length: 128, nullable: true })
  qr_code_logo!: string | null;

  @Column({ type: String, length: 128, nullable: true })
  qr_code_background!: string | null;

  @Column({ type: String, length: 128, nullable: true })
  qr_code_foreground!: string | null;

  @Column({ type: Boolean })
  is_readable!: boolean;

  /**
   * The owner's link whose URL this code (type url) encodes, with the scan marker: visits through
   * the marker count as scans. Null for every other code. No foreign key: a link's ids are never
   * reused, and a marker of a deleted link's code finds no link to count on.
   */
  @Column({ type: Number, nullable: true })
  link_id!: number | null;

  /** Visits of `link_id` through this code's scan marker. */
  @CounterColumn({ default: 0 })
  scans!: number;

  @Column({ type: Date })
  datetime!: Date;

  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
}
