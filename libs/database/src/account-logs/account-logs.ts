import type { Db } from '../engine/db';
import { AccountLogEntity } from './account-log.entity';

/** The types an account log can hold; the outbox events among them are logged as they are written. */
export const ACCOUNT_LOG_TYPES = [
  'api_key.created',
  'api_key.revoked',
  'team_member.invited',
  'team_member.accepted',
  'team_member.left',
  'domain.verified',
  'domain.disabled',
  'payment.created',
  'plan.changed',
  'links.imported',
] as const;
export type AccountLogType = (typeof ACCOUNT_LOG_TYPES)[number];

export interface AccountLogInput {
  userId: number;
  type: AccountLogType;
  data: Record<string, unknown>;
}

export function isAccountLogType(value: string): value is AccountLogType {
  return (ACCOUNT_LOG_TYPES as readonly string[]).includes(value);
}

/** Writes log entries in the open write (the change they record), or in a write of their own. */
export async function writeAccountLogs(
  db: Db,
  entries: readonly AccountLogInput[],
  now: Date,
): Promise<void> {
  if (entries.length === 0) return;
  await db.write(() =>
    db.manager
      .createQueryBuilder()
      .insert()
      .into(AccountLogEntity)
      .values(
        entries.map((e) => ({
          user_id: e.userId,
          type: e.type,
          data: JSON.stringify(e.data),
          datetime: now,
        })),
      )
      .execute(),
  );
}
