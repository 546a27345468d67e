import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { RowReader } from '../engine/row-reader';
import { UserEntity } from '../users/user.entity';
import { PlanEntity } from './plan.entity';

/** A user's plan columns together with the plan they point at (null when none or deleted). */
export interface UserPlanRow {
  plan_id: number | null;
  plan_expiration_date: Date | null;
  plan: PlanEntity | null;
}

/** Plans are the operator's, not a user's: these lookups are not owner-scoped. */
@Injectable()
export class PlansRepository {
  /** Plans and users' plan columns are read by every create that a plan limits, and GET /v1/user. */
  private readonly planRows: RowReader<PlanEntity>;
  private readonly userRows: RowReader<UserEntity>;

  constructor(@InjectRepository(PlanEntity) private readonly repo: Repository<PlanEntity>) {
    this.planRows = new RowReader(repo);
    this.userRows = new RowReader(repo.manager.getRepository(UserEntity));
  }

  /** The entity manager outside any transaction (usage counts). */
  get manager(): EntityManager {
    return this.repo.manager;
  }

  /** Runs `work` in a transaction: a limit check and the write it allows. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.manager.transaction(work);
  }

  all(): Promise<PlanEntity[]> {
    return this.repo.find({ order: { id: 'ASC' } });
  }

  findById(id: number, em: EntityManager = this.repo.manager): Promise<PlanEntity | null> {
    return this.planRows.one('"id" = ?', [id], em);
  }

  save(plan: PlanEntity): Promise<PlanEntity> {
    return this.repo.save(plan);
  }

  create(values: Omit<PlanEntity, 'id'>): Promise<PlanEntity> {
    return this.repo.save(this.repo.create(values));
  }

  /** The user's plan columns and plan, in one query; null for an unknown user. */
  async userPlan(
    userId: number,
    em: EntityManager = this.repo.manager,
  ): Promise<UserPlanRow | null> {
    const user = await this.userRows.one('"id" = ?', [userId], em);
    if (!user) return null;
    const plan = user.plan_id === null ? null : await this.findById(user.plan_id, em);
    return { plan_id: user.plan_id, plan_expiration_date: user.plan_expiration_date, plan };
  }

  /** Puts a user on a plan until `expiration` (null: no end), with `em` when in a transaction. */
  async setUserPlan(
    userId: number,
    planId: number | null,
    expiration: Date | null,
    em: EntityManager = this.repo.manager,
  ): Promise<void> {
    await em.update(
      UserEntity,
      { id: userId },
      { plan_id: planId, plan_expiration_date: expiration },
    );
  }
}
