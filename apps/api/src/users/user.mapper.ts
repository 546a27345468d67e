import { ApiProperty } from '@nestjs/swagger';
import type { EffectivePlan } from '@app/billing';
import { formatDateTime } from '@app/common';
import { type LimitedResource, PLAN_LIMITS, type PlanSettings, UserEntity } from '@app/database';

/** What the account uses of a limited resource, and what its plan allows (-1: unlimited). */
export class UsageEntry {
  @ApiProperty({ example: 12 }) used!: number;
  @ApiProperty({ example: 100, description: '-1: unlimited' }) limit!: number;
}

class PlanSettingsResponse implements PlanSettings {
  @ApiProperty({ example: 100 }) links_limit!: number;
  @ApiProperty({ example: 200 }) biolink_blocks_limit!: number;
  @ApiProperty({ example: 50 }) qr_codes_limit!: number;
  @ApiProperty({ example: 1 }) domains_limit!: number;
  @ApiProperty({ example: 10 }) projects_limit!: number;
  @ApiProperty({ example: 5 }) splash_pages_limit!: number;
  @ApiProperty({ example: 5 }) signatures_limit!: number;
  @ApiProperty({ example: 5 }) notification_handlers_limit!: number;
  @ApiProperty({ example: 3 }) team_members_limit!: number;
  @ApiProperty({ example: 52428800 }) static_storage_bytes!: number;
  @ApiProperty({ example: 600, description: 'Requests per minute per API key.' })
  api_rate_limit!: number;
  @ApiProperty({ example: 365 }) statistics_retention_days!: number;
}

class UsageResponse implements Record<LimitedResource, UsageEntry> {
  @ApiProperty() links!: UsageEntry;
  @ApiProperty() biolink_blocks!: UsageEntry;
  @ApiProperty() qr_codes!: UsageEntry;
  @ApiProperty() domains!: UsageEntry;
  @ApiProperty() projects!: UsageEntry;
  @ApiProperty() splash_pages!: UsageEntry;
  @ApiProperty() signatures!: UsageEntry;
  @ApiProperty() notification_handlers!: UsageEntry;
  @ApiProperty({ description: 'Members and pending invitations of all your teams.' })
  team_members!: UsageEntry;
  @ApiProperty({ description: 'Bytes of the current versions of your static sites.' })
  static_storage_bytes!: UsageEntry;
}

/** The caller's own account. It never carries a secret: keys exist only as hashes. */
export class UserResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ example: 'Ada' }) name!: string;
  @ApiProperty({ example: false }) is_admin!: boolean;
  @ApiProperty({ example: 'Europe/Berlin' }) timezone!: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 2,
    description:
      'The plan in force: your own until it ends, then the default plan (null when no plan applies: unlimited).',
  })
  plan_id!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2027-01-01 00:00:00',
    description: 'When your plan ends (UTC); null when it does not.',
  })
  plan_expiration_date!: string | null;
  @ApiProperty({
    type: PlanSettingsResponse,
    description: 'The limits of the plan; -1 is unlimited.',
  })
  plan_settings!: PlanSettings;
  @ApiProperty({ type: UsageResponse }) usage!: Record<LimitedResource, UsageEntry>;
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
}

export function toUserResponse(
  user: UserEntity,
  plan: EffectivePlan,
  usage: Record<LimitedResource, UsageEntry>,
): UserResponse {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    is_admin: user.is_admin,
    timezone: user.timezone,
    plan_id: plan.planId,
    plan_expiration_date: formatDateTime(plan.expiration),
    plan_settings: Object.fromEntries(
      PLAN_LIMITS.map((name) => [name, plan.settings[name]]),
    ) as PlanSettings,
    usage,
    last_datetime: formatDateTime(user.last_datetime),
    datetime: formatDateTime(user.datetime),
  };
}
