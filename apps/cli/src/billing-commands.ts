import { randomUUID } from 'node:crypto';
import { UsersService } from '@app/auth';
import {
  parseAmount,
  PAYMENT_FREQUENCIES,
  paymentPayload,
  type PaymentFrequency,
  PaymentsRecorder,
  PlansService,
} from '@app/billing';
import { AppError, formatDateTime, parseDateTime } from '@app/common';
import { PaymentsRepository, parsePlanSettings, PlanEntity } from '@app/database';
import { Command, Options, required, str } from './command';

function planSummary(plan: PlanEntity) {
  return {
    id: plan.id,
    name: plan.name,
    settings: parsePlanSettings(plan.settings),
    prices: JSON.parse(plan.prices) as unknown,
    price_ids: JSON.parse(plan.price_ids) as unknown,
    datetime: formatDateTime(plan.datetime),
    last_datetime: formatDateTime(plan.last_datetime),
  };
}

/** A JSON option (`--settings '{"links_limit":100}'`), or undefined when not given. */
function json(options: Options, name: string): unknown {
  const value = str(options, name);
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new AppError('validation_failed', `--${name} must be JSON.`, name);
  }
}

function planId(options: Options, name = 'plan-id'): number {
  const value = required(options, name);
  if (!/^[1-9]\d{0,9}$/.test(value)) {
    throw new AppError('validation_failed', `--${name} must be a plan id.`, name);
  }
  return Number(value);
}

const PLAN_OPTIONS = {
  name: { type: 'string' },
  settings: { type: 'string' },
  prices: { type: 'string' },
  'price-ids': { type: 'string' },
} as const;

/** Plans, users' plans and payments (docs/billing.md). */
export const BILLING_COMMANDS: Record<string, Command> = {
  'plan:create': {
    usage:
      'plan:create --name N [--settings \'{"links_limit":100,…}\'] [--prices \'{"currency":"EUR","monthly":"9.99"}\'] [--price-ids \'{"stripe":{"monthly":"price_…"}}\']',
    options: PLAN_OPTIONS,
    async run(app, options) {
      const plan = await app.get(PlansService).create({
        name: required(options, 'name'),
        settings: json(options, 'settings'),
        prices: json(options, 'prices'),
        price_ids: json(options, 'price-ids'),
      });
      return planSummary(plan);
    },
  },
  'plan:list': {
    usage: 'plan:list',
    options: {},
    async run(app) {
      return (await app.get(PlansService).list()).map(planSummary);
    },
  },
  'plan:update': {
    usage:
      "plan:update --plan-id P [--name N] [--settings JSON] [--prices JSON] [--price-ids JSON] (settings given are merged into the plan's)",
    options: { 'plan-id': { type: 'string' }, ...PLAN_OPTIONS },
    async run(app, options) {
      const plan = await app.get(PlansService).update(planId(options), {
        name: str(options, 'name'),
        settings: json(options, 'settings'),
        prices: json(options, 'prices'),
        price_ids: json(options, 'price-ids'),
      });
      return planSummary(plan);
    },
  },
  'user:set-plan': {
    usage: 'user:set-plan --email E --plan-id P|default [--expires "Y-m-d H:i:s"]',
    options: {
      email: { type: 'string' },
      'plan-id': { type: 'string' },
      expires: { type: 'string' },
    },
    async run(app, options) {
      const user = await app.get(UsersService).getByEmail(required(options, 'email'));
      const id = required(options, 'plan-id') === 'default' ? null : planId(options);
      const at = str(options, 'expires');
      const expires = at === undefined ? null : parseDateTime(at);
      if (at !== undefined && !expires) {
        throw new AppError(
          'validation_failed',
          '--expires must be "Y-m-d H:i:s" (UTC).',
          'expires',
        );
      }
      const plans = app.get(PlansService);
      await plans.setUserPlan(user.id, id, expires);
      const plan = await plans.effective(user.id);
      return {
        id: user.id,
        email: user.email,
        plan_id: plan.planId,
        plan_expiration_date: formatDateTime(plan.expiration),
        plan_settings: plan.settings,
      };
    },
  },
  'payment:record': {
    usage:
      'payment:record --email E --plan-id P --amount 9.99 --currency EUR --frequency monthly|quarterly|biannual|annual|lifetime [--name N] [--reference R]',
    options: {
      email: { type: 'string' },
      'plan-id': { type: 'string' },
      amount: { type: 'string' },
      currency: { type: 'string' },
      frequency: { type: 'string' },
      name: { type: 'string' },
      reference: { type: 'string' },
    },
    async run(app, options) {
      const user = await app.get(UsersService).getByEmail(required(options, 'email'));
      const plan = await app.get(PlansService).get(planId(options));
      const currency = required(options, 'currency').toUpperCase();
      const total = parseAmount(required(options, 'amount'), currency);
      const frequency = required(options, 'frequency');
      if (!(PAYMENT_FREQUENCIES as readonly string[]).includes(frequency)) {
        throw new AppError(
          'validation_failed',
          `--frequency must be one of ${PAYMENT_FREQUENCIES.join(', ')}.`,
          'frequency',
        );
      }
      const { payment } = await app.get(PaymentsRecorder).record({
        processor: 'offline_payment',
        paymentId: str(options, 'reference') ?? `offline_${randomUUID()}`,
        userId: user.id,
        email: user.email,
        name: str(options, 'name') ?? user.name,
        planId: plan.id,
        type: 'one_time',
        frequency: frequency as PaymentFrequency,
        currency,
        baseAmount: total,
        discountAmount: 0,
        totalAmount: total,
        code: null,
      });
      return paymentPayload(payment);
    },
  },
  'payment:list': {
    usage: 'payment:list [--unmatched]',
    options: { unmatched: { type: 'boolean' } },
    async run(app, options) {
      const payments = app.get(PaymentsRepository);
      const rows = options.unmatched === true ? await payments.unmatched() : await payments.all();
      return rows.map((p) => ({ ...paymentPayload(p), user_id: p.user_id }));
    },
  },
  'payment:assign': {
    usage: 'payment:assign --payment-id N --email E',
    options: { 'payment-id': { type: 'string' }, email: { type: 'string' } },
    async run(app, options) {
      const id = required(options, 'payment-id');
      if (!/^[1-9]\d{0,9}$/.test(id)) {
        throw new AppError('validation_failed', '--payment-id must be a payment id.', 'payment-id');
      }
      const user = await app.get(UsersService).getByEmail(required(options, 'email'));
      const payment = await app.get(PaymentsRecorder).assign(Number(id), user.id);
      return { ...paymentPayload(payment), user_id: payment.user_id };
    },
  },
};
