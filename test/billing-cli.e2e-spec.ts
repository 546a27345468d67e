import { PaymentsRecorder } from '@app/billing';
import { createTestApp, TestApp } from '@app/testing';
import { runCommand } from './support/cli';

describe('Command line: plans and payments', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  async function cli(...argv: string[]) {
    const run = await runCommand(t.config, ...argv);
    return { ...run, error: run.error === undefined ? undefined : JSON.parse(run.error) };
  }

  it('makes, lists and changes plans, one JSON line each', async () => {
    const made = await cli(
      'plan:create',
      '--name',
      'Starter',
      '--settings',
      '{"links_limit":100,"api_rate_limit":120}',
      '--prices',
      '{"currency":"EUR","monthly":"4.99","annual":"49.00"}',
      '--price-ids',
      '{"stripe":{"monthly":"price_starter_m"}}',
    );
    expect(made.code).toBe(0);
    expect(made.out).toHaveLength(1);
    expect(made.result).toEqual({
      id: expect.any(Number),
      name: 'Starter',
      settings: {
        links_limit: 100,
        biolink_blocks_limit: -1,
        qr_codes_limit: -1,
        domains_limit: -1,
        projects_limit: -1,
        splash_pages_limit: -1,
        signatures_limit: -1,
        notification_handlers_limit: -1,
        team_members_limit: -1,
        static_storage_bytes: -1,
        api_rate_limit: 120,
        statistics_retention_days: -1,
      },
      prices: { currency: 'EUR', monthly: '4.99', annual: '49.00' },
      price_ids: { stripe: { monthly: 'price_starter_m' } },
      datetime: expect.any(String),
      last_datetime: null,
    });
    const updated = await cli(
      'plan:update',
      '--plan-id',
      String(made.result.id),
      '--settings',
      '{"links_limit":200}',
    );
    expect(updated.result.settings).toMatchObject({ links_limit: 200, api_rate_limit: 120 });
    const list = await cli('plan:list');
    expect(list.result.map((p: { name: string }) => p.name)).toEqual(['Starter']);
  });

  it.each([
    [['--settings', '{"links":5}'], 'settings.links is not a limit'],
    [['--settings', '{"links_limit":-2}'], 'settings.links_limit must be a whole number'],
    [['--settings', '{"api_rate_limit":0}'], 'settings.api_rate_limit must be a whole number of 1'],
    [['--prices', '{"currency":"JPY","monthly":"4.99"}'], 'must be a whole number for JPY'],
    [['--prices', '{"monthly":"4.99"}'], 'prices.currency is required'],
    [['--price-ids', '{"paypal":{"monthly":"x"}}'], 'price_ids.paypal is not a processor'],
    [['--settings', 'not json'], '--settings must be JSON.'],
  ])('refuses a plan with %j', async (args, title) => {
    const res = await cli('plan:create', '--name', 'Bad', ...args);
    expect(res.code).toBe(1);
    expect(res.error.errors[0]).toMatchObject({
      status: 400,
      code: 'validation_failed',
      title: expect.stringContaining(title),
    });
  });

  it('puts a user on a plan until a date, and records an offline payment that extends it', async () => {
    const user = await t.createUser('offline@example.com');
    const plan = (await cli('plan:create', '--name', 'Offline')).result.id as number;
    const set = await cli(
      'user:set-plan',
      '--email',
      'offline@example.com',
      '--plan-id',
      String(plan),
      '--expires',
      '2030-01-31 00:00:00',
    );
    expect(set.result).toMatchObject({
      id: user.id,
      plan_id: plan,
      plan_expiration_date: '2030-01-31 00:00:00',
    });
    const paid = await cli(
      'payment:record',
      '--email',
      'offline@example.com',
      '--plan-id',
      String(plan),
      '--amount',
      '19.99',
      '--currency',
      'eur',
      '--frequency',
      'monthly',
      '--reference',
      'INV-2030-001',
    );
    expect(paid.code).toBe(0);
    expect(paid.result).toMatchObject({
      processor: 'offline_payment',
      type: 'one_time',
      frequency: 'monthly',
      total_amount: '19.99',
      currency: 'EUR',
      payment_id: 'INV-2030-001',
      status: true,
      refunded_amount: '0.00',
    });
    // 31 January + 1 month: the last day of February.
    const me = await t.http.get('/v1/user').set('Authorization', user.auth);
    expect(me.body.data).toMatchObject({
      plan_id: plan,
      plan_expiration_date: '2030-02-28 00:00:00',
    });
    const again = await cli(
      'payment:record',
      '--email',
      'offline@example.com',
      '--plan-id',
      String(plan),
      '--amount',
      '19.999',
      '--currency',
      'EUR',
      '--frequency',
      'monthly',
    );
    expect(again.code).toBe(1);
    expect(again.error.errors[0]).toMatchObject({ status: 400, field: 'amount' });
    const back = await cli(
      'user:set-plan',
      '--email',
      'offline@example.com',
      '--plan-id',
      'default',
    );
    expect(back.result).toMatchObject({ plan_id: null, plan_expiration_date: null });
  });

  it('lists the payments that matched no user, and assigns one', async () => {
    const plan = (await cli('plan:create', '--name', 'Assigned')).result.id as number;
    const { payment } = await t.app.get(PaymentsRecorder).record({
      processor: 'stripe',
      paymentId: 'pi_nobody',
      userId: null,
      email: 'nobody@example.com',
      name: null,
      planId: plan,
      type: 'one_time',
      frequency: 'lifetime',
      currency: 'USD',
      baseAmount: 500,
      discountAmount: 0,
      totalAmount: 500,
      code: null,
    });
    const unmatched = await cli('payment:list', '--unmatched');
    expect(unmatched.result).toEqual([
      expect.objectContaining({ id: payment.id, user_id: null, total_amount: '5.00' }),
    ]);
    const user = await t.createUser('somebody@example.com');
    const assigned = await cli(
      'payment:assign',
      '--payment-id',
      String(payment.id),
      '--email',
      'somebody@example.com',
    );
    expect(assigned.result).toMatchObject({ id: payment.id, user_id: user.id });
    expect((await cli('payment:list', '--unmatched')).result).toEqual([]);
    const me = await t.http.get('/v1/user').set('Authorization', user.auth);
    expect(me.body.data).toMatchObject({ plan_id: plan, plan_expiration_date: null });
    // Once assigned, it is no longer an unmatched payment to assign.
    const twice = await cli(
      'payment:assign',
      '--payment-id',
      String(payment.id),
      '--email',
      'offline@example.com',
    );
    expect(twice.code).toBe(1);
    expect(twice.error.errors[0]).toMatchObject({ status: 404, code: 'payment_not_found' });
  });

  it('gives the later payments of a subscription to the user its assigned payment went to', async () => {
    const plan = (await cli('plan:create', '--name', 'Carried')).result.id as number;
    const recorder = t.app.get(PaymentsRecorder);
    const renewal = (paymentId: string) =>
      recorder.record({
        processor: 'paddle',
        paymentId,
        subscriptionId: 'sub_01carried',
        customerId: 'ctm_01carried',
        userId: null,
        email: '',
        name: null,
        planId: plan,
        type: 'recurring',
        frequency: 'monthly',
        currency: 'EUR',
        baseAmount: 900,
        discountAmount: 0,
        totalAmount: 900,
        code: null,
      });
    const first = await renewal('txn_01carried1');
    expect([first.result, first.payment.user_id]).toEqual(['recorded', null]);
    const user = await t.createUser('carried@example.com');
    const assigned = await cli(
      'payment:assign',
      '--payment-id',
      String(first.payment.id),
      '--email',
      'carried@example.com',
    );
    expect(assigned.result).toMatchObject({ id: first.payment.id, user_id: user.id });
    const second = await renewal('txn_01carried2');
    expect([second.result, second.payment.user_id]).toEqual(['recorded', user.id]);
    expect((await cli('payment:list', '--unmatched')).result).toEqual([]);
  });
});
