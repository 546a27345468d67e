import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/**
 * A collected data record: what a visitor sent through a collector block of a bio page. The block,
 * link and project ids are kept as they were (no foreign keys): the records are the owner's leads
 * and outlive the block and the page. `email`, `name` and `phone` repeat the keys of `data` for
 * search; `slot_start` is the booked slot of an appointment (unique per block: one booking wins).
 * The visitor's IP address is never stored.
 */
@Entity('data')
@Index(['biolink_block_id', 'slot_start'], { unique: true })
export class DatumEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: Number })
  user_id!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: Number })
  biolink_block_id!: number;

  @Index()
  @Column({ type: Number })
  link_id!: number;

  @Column({ type: Number, nullable: true })
  project_id!: number | null;

  @Column({ type: String, length: 32 })
  type!: string;

  /** The record's fields as JSON text (keys per type, docs/bio-pages.md). */
  @Column({ type: 'text' })
  data!: string;

  @Column({ type: String, length: 320, nullable: true })
  email!: string | null;

  @Column({ type: String, length: 128, nullable: true })
  name!: string | null;

  @Column({ type: String, length: 32, nullable: true })
  phone!: string | null;

  @Column({ type: Date, nullable: true })
  slot_start!: Date | null;

  @Column({ type: Date })
  datetime!: Date;
}
