import { Inject, Injectable } from '@nestjs/common';
import { AppError, BoundedCache, Clock, isObject, NotFoundError } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  LIMITED_RESOURCES,
  type LimitedResource,
  mergePlanSettings,
  parsePlanSettings,
  PlanEntity,
  type PlanSettings,
  PlansRepository,
  UNLIMITED_PLAN,
  UserEntity,
} from '@app/database';
import { parseAmount } from './money';
import { PAYMENT_FREQUENCIES, type PaymentFrequency, WEBHOOK_PROCESSORS } from './payment-values';

/** The plan that applies to a user now. */
export interface EffectivePlan {
  /** The plan in force: the user's own, else the default one; null when no plan applies (unlimited). */
  planId: number | null;
  /** When the user's own plan ends; null when it does not (or when the default plan applies). */
  expiration: Date | null;
  settings: PlanSettings;
}

/** What an operator gives when making or changing a plan (the CLI's `plan:create` and `plan:update`). */
export interface PlanInput {
  name?: string;
  settings?: unknown;
  prices?: unknown;
  price_ids?: unknown;
}

/** How long the per-key rate limit of a user is remembered (a plan change on this instance drops it at once). */
const RATE_LIMIT_TTL_MS = 10_000;

@Injectable()
export class PlansService {
  private readonly rateLimits = new BoundedCache<{ limit: number | null; until: number }>(10_000);

  constructor(
    private readonly plans: PlansRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The user's plan while it has not expired, else the default plan (DEFAULT_PLAN_ID), else no
   * plan at all: unlimited. Nothing is deleted when a plan ends; only creates are refused.
   */
  async effective(userId: number): Promise<EffectivePlan> {
    const row = await this.plans.userPlan(userId);
    return this.inForce(row?.plan ?? null, row?.plan_expiration_date ?? null);
  }

  /** The same, for a user row already read (its plan columns). */
  async effectiveFor(
    user: Pick<UserEntity, 'plan_id' | 'plan_expiration_date'>,
  ): Promise<EffectivePlan> {
    const plan = user.plan_id === null ? null : await this.plans.findById(user.plan_id);
    return this.inForce(plan, user.plan_expiration_date);
  }

  private async inForce(plan: PlanEntity | null, expiration: Date | null): Promise<EffectivePlan> {
    if (plan && (expiration === null || expiration.getTime() > this.clock.now().getTime())) {
      return { planId: plan.id, expiration, settings: parsePlanSettings(plan.settings) };
    }
    const defaultId = this.config.billing.defaultPlanId;
    const fallback = defaultId === null ? null : await this.plans.findById(defaultId);
    return fallback
      ? { planId: fallback.id, expiration: null, settings: parsePlanSettings(fallback.settings) }
      : { planId: null, expiration: null, settings: { ...UNLIMITED_PLAN } };
  }

  /**
   * The requests per minute each key of the user may make, or null for the API's own
   * API_RATE_LIMIT. Remembered for RATE_LIMIT_TTL_MS: it is read on every request.
   */
  async apiRateLimit(userId: number): Promise<number | null> {
    const key = String(userId);
    const cached = this.rateLimits.get(key);
    const now = Date.now();
    if (cached && cached.until > now) return cached.limit;
    const limit = (await this.effective(userId)).settings.api_rate_limit;
    const value = limit === -1 ? null : limit;
    this.rateLimits.set(key, { limit: value, until: now + RATE_LIMIT_TTL_MS });
    return value;
  }

  /** Forgets what this process remembers of a user's plan (after it changed). */
  forget(userId: number): void {
    this.rateLimits.delete(String(userId));
  }

  /** Each limited resource: what the owner uses now and what the plan allows (-1: unlimited). */
  async usage(
    ownerId: number,
    settings: PlanSettings,
  ): Promise<Record<LimitedResource, { used: number; limit: number }>> {
    const used = await this.plans.usage(ownerId);
    return Object.fromEntries(
      (Object.keys(LIMITED_RESOURCES) as LimitedResource[]).map((resource) => [
        resource,
        { used: used[resource], limit: settings[LIMITED_RESOURCES[resource]] },
      ]),
    ) as Record<LimitedResource, { used: number; limit: number }>;
  }

  list(): Promise<PlanEntity[]> {
    return this.plans.all();
  }

  async get(id: number): Promise<PlanEntity> {
    const plan = await this.plans.findById(id);
    if (!plan) throw new NotFoundError('plan_not_found', 'plan');
    return plan;
  }

  async create(input: PlanInput): Promise<PlanEntity> {
    const values = this.validate(input, null);
    return this.plans.create({ ...values, datetime: this.clock.now(), last_datetime: null });
  }

  async update(id: number, input: PlanInput): Promise<PlanEntity> {
    const plan = await this.get(id);
    Object.assign(plan, this.validate(input, plan), { last_datetime: this.clock.now() });
    const saved = await this.plans.save(plan);
    this.rateLimits.clear();
    return saved;
  }

  /** Puts a user on a plan (null: back to the default) until `expiration` (null: no end). */
  async setUserPlan(userId: number, planId: number | null, expiration: Date | null): Promise<void> {
    if (planId !== null) await this.get(planId);
    await this.plans.setUserPlan(userId, planId, expiration);
    this.forget(userId);
  }

  private validate(
    input: PlanInput,
    current: PlanEntity | null,
  ): Pick<PlanEntity, 'name' | 'settings' | 'prices' | 'price_ids'> {
    const problems: Array<{ title: string; field: string }> = [];
    const name = input.name?.trim() ?? current?.name;
    if (name === undefined || name.length < 1 || name.length > 64) {
      problems.push({ title: 'name must be 1 to 64 characters.', field: 'name' });
    }
    const base = current ? parsePlanSettings(current.settings) : UNLIMITED_PLAN;
    const merged =
      input.settings === undefined ? { settings: base } : mergePlanSettings(base, input.settings);
    if ('problems' in merged) {
      problems.push(...merged.problems.map((title) => ({ title, field: 'settings' })));
    }
    const prices = input.prices ?? storedJson(current?.prices);
    problems.push(...priceProblems(prices));
    const priceIds = input.price_ids ?? storedJson(current?.price_ids);
    problems.push(...priceIdProblems(priceIds));
    if (problems.length > 0 || 'problems' in merged) {
      throw new AppError('validation_failed', problems);
    }
    return {
      name: name!,
      settings: JSON.stringify(merged.settings),
      prices: JSON.stringify(prices),
      price_ids: JSON.stringify(priceIds),
    };
  }
}

/** A stored JSON column, or an empty object for a new plan. */
function storedJson(text: string | undefined): unknown {
  return text === undefined ? {} : (JSON.parse(text) as unknown);
}

/** `{ "currency": "EUR", "monthly": "9.99", … }`: decimal strings in the plan's currency. */
function priceProblems(prices: unknown): Array<{ title: string; field: string }> {
  if (!isObject(prices)) return [{ title: 'prices must be a JSON object.', field: 'prices' }];
  const { currency, ...amounts } = prices;
  if (Object.keys(amounts).length === 0) return [];
  if (typeof currency !== 'string') {
    return [
      { title: 'prices.currency is required with prices (an ISO 4217 code).', field: 'prices' },
    ];
  }
  const problems: Array<{ title: string; field: string }> = [];
  for (const [frequency, amount] of Object.entries(amounts)) {
    if (!(PAYMENT_FREQUENCIES as readonly string[]).includes(frequency)) {
      problems.push({
        title: `prices.${frequency} is not a frequency; use ${PAYMENT_FREQUENCIES.join(', ')}.`,
        field: 'prices',
      });
      continue;
    }
    if (typeof amount !== 'string') {
      problems.push({
        title: `prices.${frequency} must be a decimal string such as "9.99".`,
        field: 'prices',
      });
      continue;
    }
    try {
      parseAmount(amount, currency, `prices.${frequency}`);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      problems.push(...error.problems.map((p) => ({ title: p.title, field: 'prices' })));
    }
  }
  return problems;
}

/** `{ "stripe": { "monthly": "price_…" }, … }`. */
function priceIdProblems(priceIds: unknown): Array<{ title: string; field: string }> {
  if (!isObject(priceIds))
    return [{ title: 'price_ids must be a JSON object.', field: 'price_ids' }];
  const problems: Array<{ title: string; field: string }> = [];
  for (const [processor, byFrequency] of Object.entries(priceIds)) {
    if (!(WEBHOOK_PROCESSORS as readonly string[]).includes(processor)) {
      problems.push({
        title: `price_ids.${processor} is not a processor; use ${WEBHOOK_PROCESSORS.join(', ')}.`,
        field: 'price_ids',
      });
      continue;
    }
    if (!isObject(byFrequency)) {
      problems.push({
        title: `price_ids.${processor} must be an object of frequency to price id.`,
        field: 'price_ids',
      });
      continue;
    }
    for (const [frequency, id] of Object.entries(byFrequency)) {
      if (
        !(PAYMENT_FREQUENCIES as readonly string[]).includes(frequency) ||
        typeof id !== 'string' ||
        id.length < 1 ||
        id.length > 255
      ) {
        problems.push({
          title: `price_ids.${processor}.${frequency} must be a frequency (${PAYMENT_FREQUENCIES.join(', ')}) with a price id.`,
          field: 'price_ids',
        });
      }
    }
  }
  return problems;
}

/** The plan and frequency a processor's price id is sold as, among `plans`. */
export function planOfPriceId(
  plans: readonly PlanEntity[],
  processor: string,
  priceId: string,
): { plan: PlanEntity; frequency: PaymentFrequency } | null {
  for (const plan of plans) {
    const ids = JSON.parse(plan.price_ids) as Record<string, Record<string, string>>;
    for (const [frequency, id] of Object.entries(ids[processor] ?? {})) {
      if (id === priceId) return { plan, frequency: frequency as PaymentFrequency };
    }
  }
  return null;
}
