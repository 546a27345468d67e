import { ApiProperty } from '@nestjs/swagger';
import { formatDateTime } from '@app/common';
import { UserEntity } from '@app/database';

/** The caller's own account. It never carries a secret: keys exist only as hashes. */
export class UserResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ example: 'Ada' }) name!: string;
  @ApiProperty({ example: false }) is_admin!: boolean;
  @ApiProperty({ example: 'Europe/Berlin' }) timezone!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
}

export function toUserResponse(user: UserEntity): UserResponse {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    is_admin: user.is_admin,
    timezone: user.timezone,
    last_datetime: formatDateTime(user.last_datetime),
    datetime: formatDateTime(user.datetime),
  };
}
