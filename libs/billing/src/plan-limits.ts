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
 * The plan's limits on creates. A write that adds to a limited resource runs in a transaction that
 * first counts what the owner has: on PostgreSQL the owner's user row is locked for it (several
 * instances take turns); on SQLite writes take turns anyway (Db.write). Two creates at the limit therefore never both succeed. Writes the plan does not
 * limit skip all of this.
 */
@Injectable()
export class PlanLimits {
  constructor(
    private readonly plans: PlansService,
    private readonly db: Db,
  ) {}

  /**
   * Runs `write` if the owner's plan leaves room for `needs`; else throws `plan_limit_reached`
   * (403) naming the limit and the numbers. When a limit applies, the check and `write` are one
   * write (Db.write): the repositories `write` calls join it. Inside a write the service opened,
   * they are part of that one.
   */
  async within<T>(ownerId: number, needs: Needs, write: () => Promise<T>): Promise<T> {
    const limited = await this.limited(ownerId, needs);
    if (limited.length === 0) {
      return write();
    }
    return this.db.write(async () => {
      await lockOwner(this.db, ownerId);
      await this.refuseBeyond(ownerId, limited);
      return write();
    });
  }

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
   * Throws `plan_limit_reached` now if `needs` would not fit, without a lock: a large write checks
   * this before its costly preparation, then writes through `within`, which checks again.
   */
  async precheck(ownerId: number, needs: Needs): Promise<void> {
    const limited = await this.limited(ownerId, needs);
    if (limited.length > 0) {
      await this.refuseBeyond(ownerId, limited);
    }
  }

  /** The resources of `needs` that the owner's plan limits. */
  private async limited(ownerId: number, needs: Needs): Promise<Limited[]> {
    const { settings } = await this.plans.effective(ownerId);
    return (Object.entries(needs) as Array<[LimitedResource, number]>)
      .filter(([resource, adding]) => adding > 0 && settings[LIMITED_RESOURCES[resource]] !== -1)
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
