import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** Stored lowercase; unique. */
  @Column({ type: String, length: 254, unique: true })
  email!: string;

  @Column({ type: String, length: 64 })
  name!: string;

  @Column({ type: Boolean, default: false })
  is_admin!: boolean;

  /** IANA zone used to bucket this user's statistics. */
  @Column({ type: String, length: 64, default: 'UTC' })
  timezone!: string;

  /** The plan the user is on (null: the default plan, DEFAULT_PLAN_ID, or none). */
  @Column({ type: Number, nullable: true })
  plan_id!: number | null;

  /** When the plan ends (UTC); null: it does not. Past it, the default plan applies again. */
  @Column({ type: Date, nullable: true })
  plan_expiration_date!: Date | null;

  @Column({ type: Date })
  datetime!: Date;

  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
}
