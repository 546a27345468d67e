import { Injectable } from '@nestjs/common';
import { AppError } from '@app/common';
import { countUsage, Db, LIMITED_RESOURCES, type LimitedResource, lockOwner } from '@app/database';
import { PlansService } from './plans.service';

/** What a write adds: rows of each resource (or bytes of static sites). */
export type Needs = Partial<Record<LimitedResource, number>>;

interface Limited {
  resource: LimitedResource;
  adding: number;
  limit: number;
}

/** How a limit is named in the refusal: one, many. */
const NAMES: Record<LimitedResource, [string, string]> = {
  links: ['link', 'links'],
  biolink_blocks: ['bio page block', 'bio page blocks'],
  qr_codes: ['QR code', 'QR codes'],
  domains: ['domain', 'domains'],
  projects: ['project', 'projects'],
  splash_pages: ['splash page', 'splash pages'],
  signatures: ['signature', 'signatures'],
  notification_handlers: ['notification handler', 'notification handlers'],
  team_members: ['team member', 'team members (invitations included)'],
  static_storage_bytes: ['byte of static sites', 'bytes of static sites'],
};

/**
 * The plan's limits on creates. A service opens its write (Db.write) and calls `check` first, then
 * its repositories: the check counts what the owner has, on PostgreSQL with the owner's user row
 * locked until the write ends (several instances take turns); on SQLite writes take turns anyway.
 * Two creates at the limit therefore never both succeed, and a refused create writes nothing.
 * Resources the plan does not limit are neither locked nor counted.
 */
@Injectable()
export class PlanLimits {
  constructor(
    private readonly plans: PlansService,
    private readonly db: Db,
  ) {}

  /**
   * Throws `plan_limit_reached` (403) unless the owner's plan leaves room for `needs`. Runs inside
   * the write the caller opened (Db.write) and throws if there is none: on PostgreSQL it locks the
   * owner's user row for the rest of that write, so the count and the insert after it are one step
   * for this owner; on SQLite writes take turns anyway. Resources the plan does not limit cost
   * nothing here.
   */
  async check(ownerId: number, needs: Needs): Promise<void> {
    if (!this.db.writing) {
      throw new Error('PlanLimits.check runs inside an open write (Db.write)');
    }
    const limited = await this.limited(ownerId, needs);
    if (limited.length === 0) return;
    await lockOwner(this.db, ownerId);
    await this.refuseBeyond(ownerId, limited);
  }

  /**
   * Throws `plan_limit_reached` now if `needs` would not fit, without a write or a lock: a large
   * write checks this before its costly preparation, then `check`s again inside its write.
   */
  async precheck(ownerId: number, needs: Needs): Promise<void> {
    const limited = await this.limited(ownerId, needs);
    if (limited.length > 0) {
      await this.refuseBeyond(ownerId, limited);
    }
  }

  /** The resources of `needs` that the owner's plan limits. */
  private async limited(ownerId: number, needs: Needs): Promise<Limited[]> {
    const adds = (Object.entries(needs) as Array<[LimitedResource, number]>).filter(
      ([, adding]) => adding > 0,
    );
    // A write that adds nothing (most link updates) does not read the plan.
    if (adds.length === 0) return [];
    const { settings } = await this.plans.effective(ownerId);
    return adds
      .filter(([resource]) => settings[LIMITED_RESOURCES[resource]] !== -1)
      .map(([resource, adding]) => ({
        resource,
        adding,
        limit: settings[LIMITED_RESOURCES[resource]],
      }));
  }

  private async refuseBeyond(ownerId: number, limited: readonly Limited[]): Promise<void> {
    for (const { resource, adding, limit } of limited) {
      const used = await countUsage(this.db, ownerId, resource);
      if (used + adding > limit) {
        throw new AppError('plan_limit_reached', refusal(resource, limit, used, adding));
      }
    }
  }
}

/** "Your plan allows 100 links; you have 100." (and what the request adds when that is more than one). */
export function refusal(
  resource: LimitedResource,
  limit: number,
  used: number,
  adding: number,
): string {
  const [one, many] = NAMES[resource];
  const allows = `Your plan allows ${limit} ${limit === 1 ? one : many}; you have ${used}`;
  if (resource === 'static_storage_bytes') return `${allows} and this site needs ${adding}.`;
  return adding > 1 ? `${allows} and this request adds ${adding}.` : `${allows}.`;
}
