import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Db } from '../engine/db';
import { RowReader } from '../engine/row-reader';
import { UserEntity } from '../users/user.entity';
import type { LimitedResource } from './plan-settings';
import { PlanEntity } from './plan.entity';
import { countAllUsage } from './usage';

/** A user's plan columns together with the plan they point at (null when none or deleted). */
export interface UserPlanRow {
  plan_id: number | null;
  plan_expiration_date: Date | null;
  plan: PlanEntity | null;
}

/** Owners whose usage is kept at most (the map starts again beyond it). */
const USAGE_KEPT = 1000;

/** Plans are the operator's, not a user's: these lookups are not owner-scoped. */
@Injectable()
export class PlansRepository {
  /** Plans and users' plan columns are read by every create that a plan limits, and GET /v1/user. */
  private readonly planRows: RowReader<PlanEntity>;
  private readonly userRows: RowReader<UserEntity>;
  /** Owners' usage as last counted, with the change stamp it was counted at (SQLite only). */
  private readonly usageKept = new Map<
    number,
    { stamp: string; usage: Record<LimitedResource, number> }
  >();

  constructor(
    @InjectRepository(PlanEntity) private readonly repo: Repository<PlanEntity>,
    private readonly db: Db,
  ) {
    this.planRows = new RowReader(db, repo);
    this.userRows = new RowReader(db, repo.manager.getRepository(UserEntity));
  }

  all(): Promise<PlanEntity[]> {
    return this.repo.find({ order: { id: 'ASC' } });
  }

  /** The plan (in the open write, when there is one). */
  findById(id: number): Promise<PlanEntity | null> {
    return this.planRows.one('"id" = ?', [id]);
  }

  save(plan: PlanEntity): Promise<PlanEntity> {
    return this.db.write(() => this.db.repository(PlanEntity).save(plan));
  }

  create(values: Omit<PlanEntity, 'id'>): Promise<PlanEntity> {
    return this.save(this.repo.create(values));
  }

  /**
   * Every limited resource's usage of an owner, in one query (see countAllUsage). On SQLite the
   * counts are kept until the database changes (Db.changeStamp): ten counts cost about a third of
   * GET /v1/user's CPU, and an account's usage changes far less often than it is read.
   */
  async usage(ownerId: number): Promise<Record<LimitedResource, number>> {
    // Taken before the counts: a write committed in between moves the stamp, so the next read counts again.
    const stamp = this.db.changeStamp();
    const kept = stamp === null ? undefined : this.usageKept.get(ownerId);
    if (kept !== undefined && kept.stamp === stamp) return { ...kept.usage };
    const usage = await countAllUsage(this.db, ownerId);
    if (stamp !== null) {
      if (this.usageKept.size >= USAGE_KEPT) this.usageKept.clear();
      this.usageKept.set(ownerId, { stamp, usage: { ...usage } });
    }
    return usage;
  }

  /** The user's plan columns and plan, in one query; null for an unknown user. */
  async userPlan(userId: number): Promise<UserPlanRow | null> {
    const user = await this.userRows.one('"id" = ?', [userId]);
    if (!user) return null;
    const plan = user.plan_id === null ? null : await this.findById(user.plan_id);
    return { plan_id: user.plan_id, plan_expiration_date: user.plan_expiration_date, plan };
  }

  /** Puts a user on a plan until `expiration` (null: no end), in the open write if there is one. */
  async setUserPlan(userId: number, planId: number | null, expiration: Date | null): Promise<void> {
    await this.db.write(() =>
      this.db
        .repository(UserEntity)
        .update({ id: userId }, { plan_id: planId, plan_expiration_date: expiration }),
    );
  }
}
