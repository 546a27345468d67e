import { Logger } from '@nestjs/common';
import { Paddle } from '@paddle/paddle-node-sdk';
import type Stripe from 'stripe';
import { PaymentsRecorder, PlansService } from '@app/billing';
import { Clock } from '@app/common';
import { OutboxEventEntity } from '@app/database';
import {
  closeAfterAll,
  createTestApp,
  expectDocumented,
  lemonEvent,
  lemonSignature as lemonSigned,
  paddleEvent,
  paddleSignature,
  type Shape,
  type StripeEventObject,
  stripeEvent as typedStripeEvent,
  stripeSignature,
  TestApp,
  TestUser,
} from '@app/testing';

const STRIPE_SECRET = 'whsec_test_0123456789abcdef';
const PADDLE_SECRET = 'pdl_ntfset_01h0000000000000000000000000_test';
const LEMON_SECRET = 'lemon-signing-secret';
/** The clock of the whole suite: webhook timestamps are checked against it. */
const NOW = new Date('2026-11-26T10:00:00Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);

/** Stripe's own helper signs, as the package documents for tests. */
function stripeHeader(payload: string, secret = STRIPE_SECRET, timestamp = NOW_S): string {
  return stripeSignature(payload, secret, timestamp);
}

function paddleHeader(payload: string, secret = PADDLE_SECRET, ts = NOW_S): string {
  return paddleSignature(payload, secret, ts);
}

function lemonSignature(payload: string, secret = LEMON_SECRET): string {
  return lemonSigned(payload, secret);
}

/** A Stripe event at the suite's clock, its object shaped by the `stripe` package's types. */
function stripeEvent<T extends Stripe.Event['type']>(type: T, object: StripeEventObject<T>) {
  return typedStripeEvent(type, object, NOW_S);
}

describe('Payments from processors’ webhooks', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let pro: number;
  let team: number;
  const opened = closeAfterAll();

  beforeAll(async () => {
    t = opened.add(
      await createTestApp({
        env: {
          STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
          PADDLE_WEBHOOK_SECRET: PADDLE_SECRET,
          LEMONSQUEEZY_WEBHOOK_SECRET: LEMON_SECRET,
        },
      }),
    );
    jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(NOW));
    ada = await t.createUser('ada@example.com');
    bob = await t.createUser('bob@example.com');
    const plans = t.app.get(PlansService);
    pro = (
      await plans.create({
        name: 'Pro',
        settings: { links_limit: 1000, projects_limit: 20 },
        prices: { currency: 'EUR', monthly: '9.99', annual: '99.00' },
        price_ids: {
          stripe: { monthly: 'price_pro_monthly', annual: 'price_pro_annual' },
          paddle: { annual: 'pri_01pro_annual' },
          lemonsqueezy: { monthly: '42' },
        },
      })
    ).id;
    team = (
      await plans.create({
        name: 'Team',
        settings: { links_limit: 5000 },
        price_ids: { paddle: { monthly: 'pri_01team_monthly' } },
      })
    ).id;
  });

  async function stripe(body: string, signature: string | null = stripeHeader(body)) {
    const req = t.http.post('/webhooks/stripe').set('Content-Type', 'application/json');
    return expectDocumented(
      await (signature === null ? req : req.set('Stripe-Signature', signature)).send(body),
    );
  }

  async function paddle(body: string, signature: string | null = paddleHeader(body)) {
    const req = t.http.post('/webhooks/paddle').set('Content-Type', 'application/json');
    return expectDocumented(
      await (signature === null ? req : req.set('Paddle-Signature', signature)).send(body),
    );
  }

  async function lemon(body: string, signature: string | null = lemonSignature(body)) {
    const req = t.http.post('/webhooks/lemonsqueezy').set('Content-Type', 'application/json');
    return expectDocumented(
      await (signature === null ? req : req.set('X-Signature', signature)).send(body),
    );
  }

  /** The caller's payments; every answer is checked against docs/openapi.json. */
  async function payments(user: TestUser, query = '') {
    return expectDocumented(
      await t.http.get(`/v1/payments${query}`).set('Authorization', user.auth),
    );
  }

  async function planOf(user: TestUser) {
    const res = expectDocumented(await t.http.get('/v1/user').set('Authorization', user.auth));
    expect(res.status).toBe(200);
    return {
      plan_id: res.body.data.plan_id as number | null,
      plan_expiration_date: res.body.data.plan_expiration_date as string | null,
    };
  }

  async function outboxPayments(ownerId: number) {
    const rows = await t.dataSource
      .getRepository(OutboxEventEntity)
      .find({ where: { event: 'payment.created', owner_id: ownerId }, order: { id: 'ASC' } });
    return rows.map((r) => JSON.parse(r.data) as { payment_id: string; total_amount: string });
  }

  // Shaped by Stripe.Checkout.Session (https://docs.stripe.com/api/checkout/sessions/object).
  const session: Shape<Stripe.Checkout.Session> = {
    id: 'cs_test_a1',
    object: 'checkout.session',
    mode: 'subscription',
    payment_status: 'paid',
    status: 'complete',
    client_reference_id: null,
    customer_details: { email: 'ada@example.com', name: 'Ada Lovelace' },
    amount_subtotal: 1999,
    amount_total: 999,
    total_details: { amount_discount: 1000, amount_shipping: 0, amount_tax: 0 },
    currency: 'eur',
    invoice: 'in_first',
    subscription: 'sub_1',
    payment_intent: null,
    metadata: {},
  };

  it('records a Stripe subscription once, moves the user onto the plan and renews it from the current end', async () => {
    const body = stripeEvent('checkout.session.completed', {
      ...session,
      client_reference_id: String(ada.id),
      metadata: { plan_id: String(pro), frequency: 'monthly' },
    });
    const first = await stripe(body);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
    const id = first.body.data.payment_id as number;

    // The same event again (Stripe retries): 200, nothing written.
    const replay = await stripe(body);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ data: { result: 'duplicate', payment_id: id } });
    // The subscription's first invoice, announced too: the same payment.
    const firstInvoice = await stripe(
      stripeEvent('invoice.paid', {
        id: 'in_first',
        object: 'invoice',
        billing_reason: 'subscription_create',
        customer_email: 'ada@example.com',
        customer_name: 'Ada Lovelace',
        amount_paid: 999,
        subtotal: 1999,
        currency: 'eur',
        lines: {
          data: [{ amount: 1999, pricing: { price_details: { price: 'price_pro_monthly' } } }],
        },
      }),
    );
    expect(firstInvoice.body).toEqual({ data: { result: 'duplicate', payment_id: id } });

    const list = await payments(ada);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      {
        id,
        plan_id: pro,
        processor: 'stripe',
        type: 'recurring',
        frequency: 'monthly',
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        base_amount: '19.99',
        discount_amount: '10.00',
        total_amount: '9.99',
        currency: 'EUR',
        code: null,
        payment_id: 'in_first',
        status: true,
        refunded_amount: '0.00',
        datetime: '2026-11-26 10:00:00',
      },
    ]);
    expect(list.body.meta).toMatchObject({ total: 1 });
    expect(await planOf(ada)).toEqual({
      plan_id: pro,
      plan_expiration_date: '2026-12-26 10:00:00',
    });

    // A renewal: its price tells the plan and the frequency; a month from the current end.
    const renewal = await stripe(
      stripeEvent('invoice.paid', {
        id: 'in_second',
        object: 'invoice',
        billing_reason: 'subscription_cycle',
        customer_email: 'ada@example.com',
        customer_name: 'Ada Lovelace',
        amount_paid: 999,
        subtotal: 999,
        total_discount_amounts: [],
        currency: 'eur',
        parent: { subscription_details: { metadata: { user_id: String(ada.id) } } },
        lines: {
          data: [{ amount: 999, pricing: { price_details: { price: 'price_pro_monthly' } } }],
        },
        // The invoice's payments (API 2025-03-31 on): which payment intent paid it.
        payments: {
          data: [{ payment: { type: 'payment_intent', payment_intent: 'pi_second' } }],
        },
      }),
    );
    expect(renewal.body).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
    expect(await planOf(ada)).toEqual({
      plan_id: pro,
      plan_expiration_date: '2027-01-26 10:00:00',
    });

    // Each recorded payment raised payment.created for Ada's handlers, once.
    expect((await outboxPayments(ada.id)).map((e) => [e.payment_id, e.total_amount])).toEqual([
      ['in_first', '9.99'],
      ['in_second', '9.99'],
    ]);
    // And the account log has the payments and the plan changes.
    const log = await t.http
      .get('/v1/logs?order_by=id&order_type=ASC')
      .set('Authorization', ada.auth);
    expect(log.body.data.map((e: { type: string }) => e.type)).toEqual([
      'plan.changed',
      'payment.created',
      'plan.changed',
      'payment.created',
    ]);
    expect(log.body.data[2].data).toEqual({
      plan_id: pro,
      previous_plan_id: pro,
      plan_expiration_date: '2027-01-26 10:00:00',
      payment_id: renewal.body.data.payment_id,
    });

    // A full refund of the renewal's charge, which names only its payment intent (a Charge has
    // no `invoice` since API 2025-03-31): the payment shows status false.
    const refund = await stripe(
      stripeEvent('charge.refunded', {
        id: 'ch_2',
        object: 'charge',
        amount: 999,
        amount_refunded: 999,
        refunded: true,
        payment_intent: 'pi_second',
      }),
    );
    expect(refund.body).toEqual({
      data: { result: 'refunded', payment_id: renewal.body.data.payment_id },
    });
    const refunded = await t.http
      .get(`/v1/payments/${renewal.body.data.payment_id}`)
      .set('Authorization', ada.auth);
    expect(refunded.status).toBe(200);
    expect(refunded.body.data).toMatchObject({
      payment_id: 'in_second',
      status: false,
      refunded_amount: '9.99',
    });
    const filtered = await payments(ada, '?status=0');
    expect(filtered.body.data.map((p: { payment_id: string }) => p.payment_id)).toEqual([
      'in_second',
    ]);
  });

  it.each([
    ['a missing signature', () => null],
    ['another secret', (body: string) => stripeHeader(body, 'whsec_someone_else')],
    ['a timestamp 6 minutes old', (body: string) => stripeHeader(body, STRIPE_SECRET, NOW_S - 360)],
    // Stripe's docs: the tolerance is "between the timestamp and the current time"; the package
    // itself only refuses old ones.
    [
      'a timestamp an hour ahead',
      (body: string) => stripeHeader(body, STRIPE_SECRET, NOW_S + 3600),
    ],
    [
      'a timestamp 6 minutes ahead',
      (body: string) => stripeHeader(body, STRIPE_SECRET, NOW_S + 360),
    ],
    ['a signature of another body', (body: string) => stripeHeader(body.replace('9999', '1'))],
    ['garbage', () => 't=abc,v1=zz'],
  ])('refuses a Stripe event with %s (400) and writes nothing', async (_what, sign) => {
    const body = stripeEvent('checkout.session.completed', {
      ...session,
      id: 'cs_forged',
      mode: 'payment',
      subscription: null,
      invoice: null,
      payment_intent: 'pi_forged',
      amount_total: 9999,
      client_reference_id: String(bob.id),
      metadata: { plan_id: String(pro) },
    });
    const res = await stripe(body, sign(body));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: expect.stringMatching(/^The webhook signature is not valid: /),
          code: 'invalid_signature',
        },
      ],
    });
    expect((await payments(bob)).body.data).toEqual([]);
    expect(await planOf(bob)).toEqual({ plan_id: null, plan_expiration_date: null });
  });

  it('records a Paddle transaction, finding the plan by its price, in yen without decimals', async () => {
    const body = paddleEvent(
      'transaction.completed',
      {
        id: 'txn_01hv8wptq8987qeep44cyrewp9',
        status: 'completed',
        subscription_id: 'sub_01paddle',
        currency_code: 'JPY',
        custom_data: { user_id: String(bob.id) },
        items: [
          {
            price: { id: 'pri_01pro_annual', billing_cycle: { interval: 'year', frequency: 1 } },
            quantity: 1,
          },
        ],
        details: {
          totals: {
            subtotal: '15000',
            discount: '1500',
            tax: '0',
            total: '13500',
            grand_total: '13500',
            currency_code: 'JPY',
          },
        },
      },
      '2026-11-26T10:00:00.000000Z',
    );
    const res = await paddle(body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
    const one = expectDocumented(
      await t.http.get(`/v1/payments/${res.body.data.payment_id}`).set('Authorization', bob.auth),
    );
    expect(one.body.data).toEqual({
      id: res.body.data.payment_id,
      plan_id: pro,
      processor: 'paddle',
      type: 'recurring',
      frequency: 'annual',
      email: '',
      name: null,
      base_amount: '15000',
      discount_amount: '1500',
      total_amount: '13500',
      currency: 'JPY',
      code: null,
      payment_id: 'txn_01hv8wptq8987qeep44cyrewp9',
      status: true,
      refunded_amount: '0',
      datetime: '2026-11-26 10:00:00',
    });
    expect(await planOf(bob)).toEqual({
      plan_id: pro,
      plan_expiration_date: '2027-11-26 10:00:00',
    });
    // Another user's payment is a 404, like a missing one.
    const other = await t.http
      .get(`/v1/payments/${res.body.data.payment_id}`)
      .set('Authorization', ada.auth);
    expect(other.status).toBe(404);
    expect(other.body.errors[0]).toMatchObject({ status: 404, code: 'payment_not_found' });

    expect((await paddle(body)).body).toEqual({
      data: { result: 'duplicate', payment_id: res.body.data.payment_id },
    });
  });

  it('signs Paddle events the way Paddle’s own SDK verifies them', async () => {
    // The SDK allows 5 s of age against the real clock: signed now, not at the suite's NOW.
    const body = JSON.stringify({ event_type: 'transaction.completed', data: { id: 'txn_x' } });
    const ts = Math.floor(Date.now() / 1000);
    // The SDK's verifier needs its client made (it picks the runtime's crypto then); no call is made.
    const sdk = new Paddle('pdl_sdbx_apikey_01h0000000000000000000000000_test').webhooks;
    expect(
      await sdk.isSignatureValid(body, PADDLE_SECRET, paddleHeader(body, PADDLE_SECRET, ts)),
    ).toBe(true);
    expect(
      await sdk.isSignatureValid(body, PADDLE_SECRET, paddleHeader(`${body} `, PADDLE_SECRET, ts)),
    ).toBe(false);
  });

  it.each([
    ['a stale timestamp', (b: string) => paddleHeader(b, PADDLE_SECRET, NOW_S - 301)],
    ['a timestamp from the future', (b: string) => paddleHeader(b, PADDLE_SECRET, NOW_S + 301)],
    ['a timestamp an hour ahead', (b: string) => paddleHeader(b, PADDLE_SECRET, NOW_S + 3600)],
    ['another secret', (b: string) => paddleHeader(b, 'pdl_ntfset_other')],
    ['no h1', () => `ts=${NOW_S}`],
    ['a tampered body', (b: string) => paddleHeader(b.replace('"99"', '"1"'))],
    ['no header', () => null],
  ])('refuses a Paddle event with %s (400)', async (_what, sign) => {
    const body = JSON.stringify({
      event_type: 'transaction.completed',
      data: {
        id: 'txn_forged',
        currency_code: 'EUR',
        custom_data: { user_id: String(ada.id), plan_id: String(team) },
        items: [{ price: { id: 'pri_x', billing_cycle: null } }],
        details: { totals: { subtotal: '99', discount: '0', grand_total: '99' } },
      },
    });
    const res = await paddle(body, sign(body));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      {
        status: 400,
        title: expect.stringMatching(/^The webhook signature is not valid: /),
        code: 'invalid_signature',
      },
    ]);
    const all = await payments(ada, '?processor=paddle');
    expect(all.body.data).toEqual([]);
  });

  /** Rows in payments, whoever they belong to: a refused event writes none. */
  async function paymentRows(): Promise<number> {
    const rows = await t.dataSource.query<{ n: string | number }[]>(
      'SELECT COUNT(*) AS n FROM payments',
    );
    return Number(rows[0].n);
  }

  type Send = (body: string) => ReturnType<typeof stripe>;
  const SENDERS: Record<'stripe' | 'paddle' | 'lemonsqueezy', Send> = {
    stripe: (body) => stripe(body),
    paddle: (body) => paddle(body),
    lemonsqueezy: (body) => lemon(body),
  };

  /**
   * Sends a correctly signed body and expects it refused: 400 invalid_event with `title` (and
   * `field`), one warn line in the log, and no payment written.
   */
  async function expectRefused(
    processor: keyof typeof SENDERS,
    body: string,
    title: string,
    field?: string,
  ) {
    const before = await paymentRows();
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const res = await SENDERS[processor](body);
      expect([res.status, res.body]).toEqual([
        400,
        {
          errors: [
            {
              status: 400,
              title,
              ...(field === undefined ? {} : { field }),
              code: 'invalid_event',
            },
          ],
        },
      ]);
      expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([
        `Refused a signed ${processor} webhook: ${title}`,
      ]);
    } finally {
      warn.mockRestore();
    }
    expect(await paymentRows()).toBe(before);
  }

  const NOT_AN_EVENT = {
    stripe: 'The webhook body is not a Stripe event: it needs a type and a data.object.',
    paddle: 'The webhook body is not a Paddle event: it needs an event_type and a data object.',
    lemonsqueezy:
      'The webhook body is not a Lemon Squeezy event: it needs meta.event_name and a data object.',
  };
  const JUNK = ['{}', '[]', 'null', '"x"', '0', 'true'];
  const NOT_JSON = ['not json', '', '{"type":', '\u00ff'];

  const JUNK_CASES: (readonly [keyof typeof SENDERS, string, string])[] = [
    ...(['stripe', 'paddle', 'lemonsqueezy'] as const).flatMap((p) => [
      ...JUNK.map((body) => [p, body, NOT_AN_EVENT[p]] as const),
      ...NOT_JSON.map((body) => [p, body, 'The webhook body is not JSON.'] as const),
    ]),
    ['stripe', '{"type":"checkout.session.completed"}', NOT_AN_EVENT.stripe],
    ['stripe', '{"type":"charge.refunded","data":{}}', NOT_AN_EVENT.stripe],
    ['stripe', '{"type":"invoice.paid","data":{"object":"x"}}', NOT_AN_EVENT.stripe],
    ['stripe', '{"type":7,"data":{"object":{}}}', NOT_AN_EVENT.stripe],
    ['paddle', '{"event_type":"transaction.completed"}', NOT_AN_EVENT.paddle],
    ['paddle', '{"event_type":"transaction.completed","data":null}', NOT_AN_EVENT.paddle],
    ['paddle', '{"event_type":"transaction.completed","data":[]}', NOT_AN_EVENT.paddle],
    ['lemonsqueezy', '{"meta":{"event_name":"order_created"}}', NOT_AN_EVENT.lemonsqueezy],
    ['lemonsqueezy', '{"meta":{},"data":{}}', NOT_AN_EVENT.lemonsqueezy],
    ['lemonsqueezy', '{"meta":"order_created","data":{}}', NOT_AN_EVENT.lemonsqueezy],
    [
      'paddle',
      '{"event_type":"transaction.completed","data":{}}',
      'The event has no payment id (or one over 255 characters).',
    ],
    [
      'paddle',
      JSON.stringify({
        event_type: 'transaction.completed',
        data: { id: 'x'.repeat(300), currency_code: 'EUR' },
      }),
      'The event has no payment id (or one over 255 characters).',
    ],
    [
      'paddle',
      JSON.stringify({
        event_type: 'transaction.completed',
        data: { id: 'txn_c', currency_code: 'EURO' },
      }),
      'The event has no ISO 4217 currency.',
    ],
  ];
  it.each(JUNK_CASES)(
    'refuses a signed %s body %j: 400 invalid_event, never a 5xx',
    async (p, body, title) => {
      await expectRefused(p, body, title);
    },
  );

  it.each([
    ['stripe', '{"type":"customer.created","data":{"object":{"id":"cus_1"}}}'],
    ['paddle', '{"event_type":"customer.created","data":{"id":"ctm_1"}}'],
    ['lemonsqueezy', '{"meta":{"event_name":"license_key_created"},"data":{"id":"1"}}'],
  ] as const)('still answers a %s event it does not record with 200 ignored', async (p, body) => {
    const res = await SENDERS[p](body);
    expect([res.status, res.body]).toEqual([
      200,
      { data: { result: 'ignored', payment_id: null } },
    ]);
  });

  /** 999,999,999,999: twelve digits, Stripe's largest amount in any currency (docs/billing.md). */
  const MAX_MINOR = '999999999999';
  const amountTitle = (field: string, value: unknown) =>
    `${field} must be a whole number of minor units from 0 to ${MAX_MINOR}; the event has ${JSON.stringify(value)}.`;
  const INSANE: unknown[] = [-5, 1e300, 2 ** 62, 1.5, 1e12, Number.MAX_SAFE_INTEGER, '-5', '1e300'];

  it.each(INSANE)('refuses a Stripe payment of %j JPY: 400, logged, nothing written', async (v) => {
    const body = stripeEvent('checkout.session.completed', {
      ...session,
      id: 'cs_insane',
      mode: 'payment',
      subscription: null,
      invoice: null,
      payment_intent: 'pi_insane',
      currency: 'jpy',
      client_reference_id: String(ada.id),
      amount_subtotal: 500,
      total_details: { amount_discount: 0 },
      // Deliberately not an amount Stripe would send: the type is bypassed for this one field.
      amount_total: v as number,
    });
    await expectRefused(
      'stripe',
      body,
      amountTitle('data.object.amount_total', v),
      'data.object.amount_total',
    );
    const invoice = stripeEvent('invoice.paid', {
      id: 'in_insane',
      object: 'invoice',
      customer_email: 'ada@example.com',
      currency: 'jpy',
      subtotal: 500,
      amount_paid: v as number,
      lines: { data: [{ pricing: { price_details: { price: 'price_pro_monthly' } } }] },
    });
    await expectRefused(
      'stripe',
      invoice,
      amountTitle('data.object.amount_paid', v),
      'data.object.amount_paid',
    );
  });

  it.each([...INSANE, String(2n ** 62n), '1.5', ' 5', '0x10'])(
    'refuses a Paddle transaction of %j JPY: 400, logged, nothing written',
    async (v) => {
      const body = JSON.stringify({
        event_type: 'transaction.completed',
        data: {
          id: 'txn_insane',
          currency_code: 'JPY',
          custom_data: { user_id: String(ada.id), plan_id: String(pro) },
          details: { totals: { subtotal: '500', discount: '0', grand_total: v } },
        },
      });
      const field = 'data.details.totals.grand_total';
      await expectRefused('paddle', body, amountTitle(field, v), field);
    },
  );

  it.each(INSANE)(
    'refuses a Lemon Squeezy order of %j JPY: 400, logged, nothing written',
    async (v) => {
      const body = JSON.stringify({
        meta: { event_name: 'order_created', custom_data: { user_id: String(ada.id) } },
        data: {
          type: 'orders',
          id: '900',
          attributes: {
            user_email: 'ada@example.com',
            currency: 'JPY',
            subtotal: 500,
            discount_total: 0,
            total: v,
            status: 'paid',
          },
        },
      });
      await expectRefused(
        'lemonsqueezy',
        body,
        amountTitle('data.attributes.total', v),
        'data.attributes.total',
      );
    },
  );

  it('records the largest sane amount, 999,999,999,999 JPY, exactly', async () => {
    const body = stripeEvent('checkout.session.completed', {
      ...session,
      id: 'cs_largest',
      mode: 'payment',
      subscription: null,
      invoice: null,
      payment_intent: 'pi_largest',
      currency: 'jpy',
      customer_details: { email: 'nobody-largest@example.com', name: null },
      amount_subtotal: 999_999_999_999,
      total_details: { amount_discount: 0 },
      amount_total: 999_999_999_999,
    });
    const res = await stripe(body);
    expect(res.body).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
    const rows = await t.dataSource.query<{ total_amount: string | number }[]>(
      `SELECT total_amount FROM payments WHERE payment_id = 'pi_largest'`,
    );
    expect(String(rows[0].total_amount)).toBe(MAX_MINOR);
  });

  it('records Lemon Squeezy orders in dinars with three decimals, renewals by the earlier plan, and refunds', async () => {
    const carol = await t.createUser('carol@example.com');
    const order = lemonEvent(
      { event_name: 'order_created', custom_data: { user_id: String(carol.id) } },
      {
        type: 'orders',
        id: '1',
        attributes: {
          identifier: '104e18a2-d755-4d4b-80c4-a6c1dcbe1c10',
          order_number: 1,
          user_name: 'Carol',
          user_email: 'carol@example.com',
          currency: 'KWD',
          subtotal: 3250,
          discount_total: 0,
          total: 3250,
          status: 'paid',
          refunded: false,
          first_order_item: { variant_id: 42, product_id: 7, price_id: 9 },
        },
      },
    );
    const res = await lemon(order);
    expect(res.status).toBe(200);
    expect(res.body.data.result).toBe('recorded');
    const list = await payments(carol);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        plan_id: pro,
        processor: 'lemonsqueezy',
        type: 'recurring',
        frequency: 'monthly',
        total_amount: '3.250',
        base_amount: '3.250',
        currency: 'KWD',
        payment_id: 'order:1',
      }),
    ]);
    expect(await planOf(carol)).toEqual({
      plan_id: pro,
      plan_expiration_date: '2026-12-26 10:00:00',
    });

    // The subscription's first invoice is that order: nothing more.
    const invoice = (reason: 'initial' | 'renewal', id: string) =>
      lemonEvent(
        { event_name: 'subscription_payment_success', custom_data: {} },
        {
          type: 'subscription-invoices',
          id,
          attributes: {
            billing_reason: reason,
            user_email: 'carol@example.com',
            user_name: 'Carol',
            currency: 'KWD',
            subtotal: 3250,
            discount_total: 0,
            total: 3250,
            status: 'paid',
          },
        },
      );
    expect((await lemon(invoice('initial', '10'))).body).toEqual({
      data: { result: 'ignored', payment_id: null },
    });
    // A renewal names no variant: it renews the plan of Carol's earlier payment (found by email).
    expect((await lemon(invoice('renewal', '11'))).body.data.result).toBe('recorded');
    expect(await planOf(carol)).toEqual({
      plan_id: pro,
      plan_expiration_date: '2027-01-26 10:00:00',
    });

    const bad = await lemon(order, lemonSignature(order, 'not-the-secret'));
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe('invalid_signature');

    const refund = lemonEvent(
      { event_name: 'order_refunded' },
      { type: 'orders', id: '1', attributes: { refunded: true, refunded_amount: 3250 } },
    );
    expect((await lemon(refund)).body.data.result).toBe('refunded');
    const after = await payments(carol, '?order_by=id&order_type=ASC');
    expect(after.body.data.map((p: { status: boolean }) => p.status)).toEqual([false, true]);
  });

  it('keeps a payment that matches no user, and the operator assigns it later', async () => {
    const body = stripeEvent('checkout.session.completed', {
      ...session,
      id: 'cs_stranger',
      mode: 'payment',
      subscription: null,
      invoice: null,
      payment_intent: 'pi_stranger',
      customer_details: { email: 'dave@example.com', name: 'Dave' },
      metadata: { plan_id: String(team), frequency: 'lifetime' },
    });
    const res = await stripe(body);
    expect(res.body).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
    const dave = await t.createUser('dave-account@example.com');
    expect((await payments(dave)).body.data).toEqual([]);

    const assigned = await t.app.get(PaymentsRecorder).assign(res.body.data.payment_id, dave.id);
    expect(assigned.user_id).toBe(dave.id);
    const list = await payments(dave);
    expect(list.body.data).toEqual([
      expect.objectContaining({ type: 'one_time', frequency: 'lifetime', plan_id: team }),
    ]);
    // Lifetime: the plan does not end.
    expect(await planOf(dave)).toEqual({ plan_id: team, plan_expiration_date: null });
  });

  it('lists with filters and orders, and refuses unknown values naming them', async () => {
    const byAmount = await payments(ada, '?order_by=total_amount&order_type=DESC');
    expect(byAmount.status).toBe(200);
    expect(byAmount.body.data.map((p: { total_amount: string }) => p.total_amount)).toEqual([
      '9.99',
      '9.99',
    ]);
    const recurring = await payments(bob, '?type=recurring&frequency=annual&processor=paddle');
    expect(recurring.body.data).toHaveLength(1);
    expect((await payments(bob, '?type=one_time')).body.data).toEqual([]);
    const bad = await payments(ada, '?frequency=weekly');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ status: 400, field: 'frequency' });
    const teamContext = await t.http
      .get('/v1/payments')
      .set('Authorization', ada.auth)
      .set('X-Team-Id', '1');
    expect(teamContext.status).toBe(403);
  });

  it('answers 404 for a processor whose secret is not set', async () => {
    const bare = opened.add(await createTestApp());
    const res = expectDocumented(
      await bare.http.post('/webhooks/stripe').set('Content-Type', 'application/json').send('{}'),
    );
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({ status: 404, code: 'route_not_found' });
  });
});
