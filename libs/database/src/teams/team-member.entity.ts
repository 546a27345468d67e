import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';
import { TeamEntity } from './team.entity';

/** `status` of a membership. */
export const TEAM_MEMBER_STATUS = { invited: 0, accepted: 1 } as const;

/** The flags a membership grants; `read` is always granted. */
export const ACCESS_FLAGS = ['read', 'create', 'update', 'delete'] as const;
export type AccessFlag = (typeof ACCESS_FLAGS)[number];
export type AccessFlags = Record<AccessFlag, boolean>;

/**
 * An invitation to a team, addressed to an email, that becomes a membership when the invitee
 * accepts: accepting binds `user_id` (the email may have had no account when it was invited).
 */
@Entity('team_members')
@Index(['team_id', 'user_email'], { unique: true })
export class TeamMemberEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: Number })
  team_id!: number;

  @ManyToOne(() => TeamEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id' })
  team?: TeamEntity;

  /** Null until the invitee accepts. */
  @Index()
  @Column({ type: Number, nullable: true })
  user_id!: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  /** Stored lowercase. */
  @Index()
  @Column({ type: String, length: 254 })
  user_email!: string;

  @Column({ type: Boolean, default: true })
  access_read!: boolean;

  @Column({ type: Boolean, default: false })
  access_create!: boolean;

  @Column({ type: Boolean, default: false })
  access_update!: boolean;

  @Column({ type: Boolean, default: false })
  access_delete!: boolean;

  /** 0 invited, 1 accepted (TEAM_MEMBER_STATUS). */
  @Column({ type: Number, default: 0 })
  status!: number;

  @Column({ type: Date })
  datetime!: Date;

  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
}

export function accessOf(member: TeamMemberEntity): AccessFlags {
  return {
    read: member.access_read,
    create: member.access_create,
    update: member.access_update,
    delete: member.access_delete,
  };
}

export function accessColumns(
  access: AccessFlags,
): Pick<TeamMemberEntity, 'access_read' | 'access_create' | 'access_update' | 'access_delete'> {
  return {
    access_read: true,
    access_create: access.create,
    access_update: access.update,
    access_delete: access.delete,
  };
}
