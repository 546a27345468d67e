import type { Order, SubscriptionInvoice } from '@lemonsqueezy/lemonsqueezy.js';
import { Logger } from '@nestjs/common';
import { type ITransactionNotificationResponse, Paddle } from '@paddle/paddle-node-sdk';
import type Stripe from 'stripe';
import { PlansService } from '@app/billing';
import { Clock } from '@app/common';
import { OutboxEventEntity } from '@app/database';
import {
  closeAfterAll,
  createTestApp,
  expectDocumented,
  lemonEvent,
  lemonSignature,
  paddleEvent,
  paddleSignature,
  type Shape,
  stripeEvent as typedStripeEvent,
  type StripeEventObject,
  stripeSignature,
  TestApp,
  TestUser,
} from '@app/testing';

/*
 * Issue 35: payments as the processors send them today. Every event here is built from the
 * processor's own library: Stripe's objects typed by `stripe` 23.x (API version 2026-10-28) and
 * signed by its `generateTestHeaderString`; Paddle's typed by `@paddle/paddle-node-sdk` and read
 * back by its `webhooks.unmarshal`; Lemon Squeezy's typed by `@lemonsqueezy/lemonsqueezy.js`.
 */

const STRIPE_SECRET = 'whsec_processors_0123456789';
const PADDLE_SECRET = 'pdl_ntfset_01h0000000000000000000000001_test';
const LEMON_SECRET = 'lemon-processors-secret';
/** The clock of the whole suite: webhook timestamps are checked against it. */
const NOW = new Date('2026-11-26T10:00:00Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);

/** Unix seconds `months` (and `days`) after NOW, as Stripe writes a period's bounds. */
function at(months: number, days = 0): number {
  return Math.floor(Date.UTC(2026, 10 + months, 26 + days, 10) / 1000);
}

function stripeEvent<T extends Stripe.Event['type']>(type: T, object: StripeEventObject<T>) {
  return typedStripeEvent(type, object, NOW_S);
}

/** A subscription item's line of an invoice, as API 2026-10-28 writes it (no `price`). */
function line(
  price: string,
  amount: number,
  period: { start: number; end: number },
  proration = false,
): NonNullable<NonNullable<StripeEventObject<'invoice.paid'>['lines']>['data']>[number] {
  return {
    object: 'line_item',
    amount,
    currency: 'eur',
    period,
    pricing: { type: 'price_details', price_details: { price, product: 'prod_linkdock' } },
    parent: {
      type: 'subscription_item_details',
      subscription_item_details: { proration, subscription_item: 'si_1', invoice_item: null },
    },
  };
}

/**
 * The Pro plan's yearly price as a Paddle transaction item carries it (the price entity of
 * https://developer.paddle.com/api-reference/prices/overview; the SDK reads its unit price and
 * quantity limits).
 */
const PADDLE_PRO_YEARLY = {
  price: {
    id: 'pri_01pro_y',
    product_id: 'pro_01linkdock',
    description: 'Pro, yearly',
    billing_cycle: { interval: 'year', frequency: 1 },
    tax_mode: 'account_setting',
    unit_price: { amount: '9900', currency_code: 'EUR' },
    quantity: { minimum: 1, maximum: 1 },
    status: 'active',
  },
  quantity: 1,
} satisfies NonNullable<Shape<ITransactionNotificationResponse>['items']>[number];

describe('Payments as processors send them today (issue 35)', () => {
  let t: TestApp;
  let basic: number;
  let pro: number;
  let team: number;
  const opened = closeAfterAll();
  // The SDK's verifier needs its client made (it picks the runtime's crypto then); no call is made.
  const paddleSdk = new Paddle('pdl_sdbx_apikey_01h0000000000000000000000001_test').webhooks;

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
    const plans = t.app.get(PlansService);
    basic = (
      await plans.create({
        name: 'Basic',
        settings: { links_limit: 100 },
        price_ids: { stripe: { monthly: 'price_basic_m' } },
      })
    ).id;
    pro = (
      await plans.create({
        name: 'Pro',
        settings: { links_limit: 1000 },
        price_ids: {
          stripe: { monthly: 'price_pro_m' },
          paddle: { annual: 'pri_01pro_y' },
          lemonsqueezy: { monthly: '42' },
        },
      })
    ).id;
    team = (await plans.create({ name: 'Team', settings: { links_limit: 5000 } })).id;
  });

  async function stripe(body: string) {
    const res = expectDocumented(
      await t.http
        .post('/webhooks/stripe')
        .set('Content-Type', 'application/json')
        .set('Stripe-Signature', stripeSignature(body, STRIPE_SECRET, NOW_S))
        .send(body),
    );
    expect(res.status).toBe(200);
    return res.body as { data: { result: string; payment_id: number | null } };
  }

  /** Paddle's own SDK reads the fixture first (it checks the signature against the real clock). */
  async function paddle(body: string) {
    const parsed = await paddleSdk.unmarshal(
      body,
      PADDLE_SECRET,
      paddleSignature(body, PADDLE_SECRET, Math.floor(Date.now() / 1000)),
    );
    const res = expectDocumented(
      await t.http
        .post('/webhooks/paddle')
        .set('Content-Type', 'application/json')
        .set('Paddle-Signature', paddleSignature(body, PADDLE_SECRET, NOW_S))
        .send(body),
    );
    expect(res.status).toBe(200);
    return { body: res.body as { data: { result: string; payment_id: number | null } }, parsed };
  }

  async function lemon(body: string) {
    const res = expectDocumented(
      await t.http
        .post('/webhooks/lemonsqueezy')
        .set('Content-Type', 'application/json')
        .set('X-Signature', lemonSignature(body, LEMON_SECRET))
        .send(body),
    );
    expect(res.status).toBe(200);
    return res.body as { data: { result: string; payment_id: number | null } };
  }

  async function paymentsOf(user: TestUser) {
    const res = expectDocumented(
      await t.http.get('/v1/payments?order_by=id&order_type=ASC').set('Authorization', user.auth),
    );
    expect(res.status).toBe(200);
    return res.body.data as Array<Record<string, unknown>>;
  }

  async function planOf(user: TestUser) {
    const res = expectDocumented(await t.http.get('/v1/user').set('Authorization', user.auth));
    expect(res.status).toBe(200);
    return [res.body.data.plan_id, res.body.data.plan_expiration_date] as const;
  }

  /** What the payment's refunds left: its status and refunded amount, through the API. */
  async function refundState(user: TestUser, id: number) {
    const res = expectDocumented(
      await t.http.get(`/v1/payments/${id}`).set('Authorization', user.auth),
    );
    expect(res.status).toBe(200);
    return [res.body.data.status, res.body.data.refunded_amount] as const;
  }

  describe('Stripe', () => {
    it('refunds a subscription payment through the payment intent and charge its invoice payment names, in either order', async () => {
      const rita = await t.createUser('rita@example.com');
      // invoice_payment.paid before invoice.paid: the ids are kept for the invoice to come.
      const paidBy = (invoice: string, intent: string, charge: string) =>
        stripeEvent('invoice_payment.paid', {
          id: `inpay_${invoice}`,
          object: 'invoice_payment',
          invoice,
          amount_paid: 999,
          currency: 'eur',
          status: 'paid',
          payment: { type: 'payment_intent', payment_intent: intent, charge },
        });
      expect(await stripe(paidBy('in_r1', 'pi_r1', 'ch_r1'))).toEqual({
        data: { result: 'linked', payment_id: null },
      });
      const first = await stripe(
        stripeEvent('invoice.paid', {
          id: 'in_r1',
          object: 'invoice',
          billing_reason: 'subscription_create',
          customer: 'cus_r',
          customer_email: 'rita@example.com',
          currency: 'eur',
          subtotal: 999,
          amount_paid: 999,
          parent: {
            type: 'subscription_details',
            subscription_details: { subscription: 'sub_r', metadata: { user_id: String(rita.id) } },
          },
          lines: { data: [line('price_pro_m', 999, { start: NOW_S, end: at(1) })] },
        }),
      );
      expect(first).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
      const firstId = first.data.payment_id as number;
      expect(await stripe(paidBy('in_r1', 'pi_r1', 'ch_r1'))).toEqual({
        data: { result: 'duplicate', payment_id: firstId },
      });

      // A Charge names its payment intent, never the invoice (API 2025-03-31 on).
      const refunded = (id: string, intent: string, amount: number, full: boolean) =>
        stripeEvent('charge.refunded', {
          id,
          object: 'charge',
          amount: 999,
          amount_refunded: amount,
          refunded: full,
          payment_intent: intent,
          currency: 'eur',
        });
      expect(await stripe(refunded('ch_r1', 'pi_r1', 999, true))).toEqual({
        data: { result: 'refunded', payment_id: firstId },
      });
      expect(await refundState(rita, firstId)).toEqual([false, '9.99']);

      // The renewal, then its payment: no metadata, the subscription names the user.
      const renewal = await stripe(
        stripeEvent('invoice.paid', {
          id: 'in_r2',
          object: 'invoice',
          billing_reason: 'subscription_cycle',
          customer: 'cus_r',
          customer_email: 'rita@example.com',
          currency: 'eur',
          subtotal: 999,
          amount_paid: 999,
          parent: {
            type: 'subscription_details',
            subscription_details: { subscription: 'sub_r', metadata: {} },
          },
          lines: { data: [line('price_pro_m', 999, { start: at(1), end: at(2) })] },
        }),
      );
      expect(renewal).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
      const renewalId = renewal.data.payment_id as number;
      expect(await stripe(paidBy('in_r2', 'pi_r2', 'ch_r2'))).toEqual({
        data: { result: 'linked', payment_id: renewalId },
      });
      // A partial refund is recorded and leaves the payment paid (docs/billing.md, "Refunds").
      expect(await stripe(refunded('ch_r2', 'pi_r2', 300, false))).toEqual({
        data: { result: 'refunded', payment_id: renewalId },
      });
      expect(await refundState(rita, renewalId)).toEqual([true, '3.00']);
      expect(await stripe(refunded('ch_r2', 'pi_r2', 300, false))).toEqual({
        data: { result: 'duplicate', payment_id: renewalId },
      });
      expect(await refundState(rita, renewalId)).toEqual([true, '3.00']);
      expect(await stripe(refunded('ch_r2', 'pi_r2', 999, true))).toEqual({
        data: { result: 'refunded', payment_id: renewalId },
      });
      expect(await refundState(rita, renewalId)).toEqual([false, '9.99']);
      // Refunds leave the plan as it is.
      expect(await planOf(rita)).toEqual([pro, '2027-01-26 10:00:00']);
    });

    it('gives renewals to the user of the subscription (then of the customer) when the payer’s email is another', async () => {
      const sam = await t.createUser('sam@example.com');
      const checkout = await stripe(
        stripeEvent('checkout.session.completed', {
          id: 'cs_s1',
          object: 'checkout.session',
          mode: 'subscription',
          status: 'complete',
          payment_status: 'paid',
          client_reference_id: String(sam.id),
          customer: 'cus_s',
          customer_details: { email: 'sam.payments@example.org', name: 'Sam' },
          subscription: 'sub_s',
          invoice: 'in_s1',
          currency: 'eur',
          amount_subtotal: 999,
          amount_total: 999,
          metadata: { plan_id: String(pro), frequency: 'monthly' },
        }),
      );
      expect(checkout).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
      const renewal = (id: string, subscription: string, period: { start: number; end: number }) =>
        stripeEvent('invoice.paid', {
          id,
          object: 'invoice',
          billing_reason: 'subscription_cycle',
          customer: 'cus_s',
          customer_email: 'sam.payments@example.org',
          customer_name: 'Sam',
          currency: 'eur',
          subtotal: 999,
          amount_paid: 999,
          parent: {
            type: 'subscription_details',
            subscription_details: { subscription, metadata: {} },
          },
          lines: { data: [line('price_pro_m', 999, period)] },
        });
      expect(
        (await stripe(renewal('in_s2', 'sub_s', { start: at(1), end: at(2) }))).data.result,
      ).toBe('recorded');
      // A new subscription of the same customer (after a cancellation): the customer names Sam.
      expect(
        (await stripe(renewal('in_s3', 'sub_s_again', { start: at(2), end: at(3) }))).data.result,
      ).toBe('recorded');
      const list = await paymentsOf(sam);
      expect(list.map((p) => [p.payment_id, p.plan_id, p.email, p.total_amount])).toEqual([
        ['in_s1', pro, 'sam.payments@example.org', '9.99'],
        ['in_s2', pro, 'sam.payments@example.org', '9.99'],
        ['in_s3', pro, 'sam.payments@example.org', '9.99'],
      ]);
      expect(await planOf(sam)).toEqual([pro, '2027-02-26 10:00:00']);
    });

    it('completes an invoice paid before its checkout session: the session brings the user, who gets the plan once', async () => {
      const tia = await t.createUser('tia@example.com');
      const invoice = stripeEvent('invoice.paid', {
        id: 'in_t1',
        object: 'invoice',
        billing_reason: 'subscription_create',
        customer: 'cus_t',
        customer_email: 'tia.billing@example.org',
        customer_name: 'Tia',
        currency: 'eur',
        subtotal: 999,
        amount_paid: 999,
        parent: {
          type: 'subscription_details',
          subscription_details: { subscription: 'sub_t', metadata: {} },
        },
        lines: { data: [line('price_pro_m', 999, { start: NOW_S, end: at(1) })] },
      });
      const first = await stripe(invoice);
      expect(first).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
      const id = first.data.payment_id as number;
      expect(await paymentsOf(tia)).toEqual([]);
      expect(await planOf(tia)).toEqual([null, null]);

      const session = stripeEvent('checkout.session.completed', {
        id: 'cs_t1',
        object: 'checkout.session',
        mode: 'subscription',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: String(tia.id),
        customer: 'cus_t',
        customer_details: { email: 'tia.billing@example.org', name: 'Tia' },
        subscription: 'sub_t',
        invoice: 'in_t1',
        currency: 'eur',
        amount_subtotal: 999,
        amount_total: 999,
      });
      expect(await stripe(session)).toEqual({ data: { result: 'completed', payment_id: id } });
      expect(await paymentsOf(tia)).toEqual([
        {
          id,
          plan_id: pro,
          processor: 'stripe',
          type: 'recurring',
          frequency: 'monthly',
          email: 'tia.billing@example.org',
          name: 'Tia',
          base_amount: '9.99',
          discount_amount: '0.00',
          total_amount: '9.99',
          currency: 'EUR',
          code: null,
          payment_id: 'in_t1',
          status: true,
          refunded_amount: '0.00',
          datetime: '2026-11-26 10:00:00',
        },
      ]);
      expect(await planOf(tia)).toEqual([pro, '2026-12-26 10:00:00']);

      // Both again, in any order: nothing more is applied.
      expect(await stripe(session)).toEqual({ data: { result: 'duplicate', payment_id: id } });
      expect(await stripe(invoice)).toEqual({ data: { result: 'duplicate', payment_id: id } });
      expect(await planOf(tia)).toEqual([pro, '2026-12-26 10:00:00']);
      const events = await t.dataSource
        .getRepository(OutboxEventEntity)
        .findBy({ event: 'payment.created', owner_id: tia.id });
      expect(events.map((e) => (JSON.parse(e.data) as { id: number }).id)).toEqual([id]);
    });

    it('records a one-time checkout paid by a delayed method when its payment succeeds, and logs one that fails', async () => {
      const uma = await t.createUser('uma@example.com');
      const session = (
        id: string,
        intent: string,
        paymentStatus: 'paid' | 'unpaid',
      ): StripeEventObject<'checkout.session.completed'> => ({
        id,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: paymentStatus,
        payment_method_types: ['sepa_debit'],
        client_reference_id: String(uma.id),
        customer_details: { email: 'uma@example.com', name: 'Uma' },
        payment_intent: intent,
        subscription: null,
        invoice: null,
        currency: 'eur',
        amount_subtotal: 4900,
        amount_total: 4900,
        metadata: { plan_id: String(team), frequency: 'lifetime' },
      });
      expect(
        await stripe(
          stripeEvent('checkout.session.completed', session('cs_u1', 'pi_u1', 'unpaid')),
        ),
      ).toEqual({ data: { result: 'ignored', payment_id: null } });
      expect(await paymentsOf(uma)).toEqual([]);

      const succeeded = stripeEvent(
        'checkout.session.async_payment_succeeded',
        session('cs_u1', 'pi_u1', 'paid'),
      );
      const recorded = await stripe(succeeded);
      expect(recorded).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
      expect(await stripe(succeeded)).toEqual({
        data: { result: 'duplicate', payment_id: recorded.data.payment_id },
      });
      expect(
        (await paymentsOf(uma)).map((p) => [p.payment_id, p.type, p.frequency, p.total_amount]),
      ).toEqual([['pi_u1', 'one_time', 'lifetime', '49.00']]);
      expect(await planOf(uma)).toEqual([team, null]);

      const warn = jest.spyOn(Logger.prototype, 'warn');
      try {
        const failed = stripeEvent(
          'checkout.session.async_payment_failed',
          session('cs_u2', 'pi_u2', 'unpaid'),
        );
        expect(await stripe(failed)).toEqual({ data: { result: 'ignored', payment_id: null } });
        expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([
          'A webhook recorded nothing: the delayed payment of checkout session cs_u2 failed: nothing was paid, nothing is recorded.',
        ]);
      } finally {
        warn.mockRestore();
      }
      expect((await paymentsOf(uma)).map((p) => p.payment_id)).toEqual(['pi_u1']);
    });

    it('reads an upgrade’s plan from the new item’s line, not the proration credit, and ends it with the period paid for', async () => {
      const vic = await t.createUser('vic@example.com');
      // The subscription's metadata is a snapshot of the checkout: it still says Basic later.
      const parent = {
        type: 'subscription_details',
        subscription_details: {
          subscription: 'sub_v',
          metadata: { user_id: String(vic.id), plan_id: String(basic) },
        },
      } as const;
      const invoice = (
        id: string,
        reason: 'subscription_create' | 'subscription_update' | 'subscription_cycle',
        paid: number,
        lines: ReturnType<typeof line>[],
      ) =>
        stripeEvent('invoice.paid', {
          id,
          object: 'invoice',
          billing_reason: reason,
          customer: 'cus_v',
          customer_email: 'vic@example.com',
          currency: 'eur',
          subtotal: paid,
          amount_paid: paid,
          parent,
          lines: { data: lines },
        });
      expect(
        (
          await stripe(
            invoice('in_v1', 'subscription_create', 499, [
              line('price_basic_m', 499, { start: NOW_S, end: at(1) }),
            ]),
          )
        ).data.result,
      ).toBe('recorded');
      expect(await planOf(vic)).toEqual([basic, '2026-12-26 10:00:00']);

      // Upgraded to Pro half-way: "Unused time on Basic" (a credit, first) and "Remaining time
      // on Pro", both prorations over the rest of the period.
      const rest = { start: at(0, 15), end: at(1) };
      const upgrade = await stripe(
        invoice('in_v2', 'subscription_update', 250, [
          { ...line('price_basic_m', -249, rest, true), description: 'Unused time on Basic' },
          { ...line('price_pro_m', 499, rest, true), description: 'Remaining time on Pro' },
        ]),
      );
      expect(upgrade).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
      // On Pro, ending when the period paid for ends: not a whole period more.
      expect(await planOf(vic)).toEqual([pro, '2026-12-26 10:00:00']);
      expect((await paymentsOf(vic)).map((p) => [p.payment_id, p.plan_id])).toEqual([
        ['in_v1', basic],
        ['in_v2', pro],
      ]);

      // The next cycle's invoice: the Pro item's line (not a proration) for the next period.
      expect(
        (
          await stripe(
            invoice('in_v3', 'subscription_cycle', 999, [
              line('price_pro_m', 999, { start: at(1), end: at(2) }),
            ]),
          )
        ).data.result,
      ).toBe('recorded');
      expect(await planOf(vic)).toEqual([pro, '2027-01-26 10:00:00']);
    });
  });

  describe('Paddle', () => {
    it('applies approved refund adjustments: in part (refunded_amount) and then in full, each once', async () => {
      const wes = await t.createUser('wes@example.com');
      const txn = await paddle(
        paddleEvent(
          'transaction.completed',
          {
            id: 'txn_01w1',
            status: 'completed',
            origin: 'web',
            customer_id: 'ctm_01w',
            subscription_id: 'sub_01w',
            currency_code: 'EUR',
            collection_mode: 'automatic',
            custom_data: { user_id: String(wes.id), email: 'wes@example.com' },
            items: [PADDLE_PRO_YEARLY],
            payments: [],
            details: {
              tax_rates_used: [],
              line_items: [],
              totals: {
                subtotal: '9900',
                discount: '0',
                tax: '0',
                total: '9900',
                grand_total: '9900',
                currency_code: 'EUR',
              },
            },
          },
          '2026-11-26T10:00:00.000000Z',
        ),
      );
      expect(txn.body).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
      const id = txn.body.data.payment_id as number;

      const adjustment = (
        type: 'adjustment.created' | 'adjustment.updated',
        adjustmentId: string,
        status: 'pending_approval' | 'approved',
        kind: 'full' | 'partial',
        total: string,
      ) =>
        paddleEvent(
          type,
          {
            id: adjustmentId,
            action: 'refund',
            type: kind,
            transaction_id: 'txn_01w1',
            subscription_id: 'sub_01w',
            customer_id: 'ctm_01w',
            reason: 'requested by the customer',
            currency_code: 'EUR',
            status,
            items: [],
            totals: {
              subtotal: total,
              tax: '0',
              total,
              fee: '0',
              earnings: '0',
              currency_code: 'EUR',
            },
          },
          '2026-11-26T10:00:00.000000Z',
        );
      const pending = await paddle(
        adjustment('adjustment.created', 'adj_01w1', 'pending_approval', 'partial', '3000'),
      );
      expect(pending.parsed).toMatchObject({
        eventType: 'adjustment.created',
        data: {
          id: 'adj_01w1',
          action: 'refund',
          status: 'pending_approval',
          transactionId: 'txn_01w1',
        },
      });
      expect(pending.body).toEqual({ data: { result: 'ignored', payment_id: null } });
      expect(await refundState(wes, id)).toEqual([true, '0.00']);

      const approved = adjustment('adjustment.updated', 'adj_01w1', 'approved', 'partial', '3000');
      const partial = await paddle(approved);
      expect(partial.parsed).toMatchObject({
        eventType: 'adjustment.updated',
        data: { action: 'refund', status: 'approved', type: 'partial' },
      });
      expect(partial.body).toEqual({ data: { result: 'refunded', payment_id: id } });
      expect(await refundState(wes, id)).toEqual([true, '30.00']);
      expect((await paddle(approved)).body).toEqual({
        data: { result: 'duplicate', payment_id: id },
      });
      expect(await refundState(wes, id)).toEqual([true, '30.00']);

      const full = await paddle(
        adjustment('adjustment.updated', 'adj_01w2', 'approved', 'full', '6900'),
      );
      expect(full.body).toEqual({ data: { result: 'refunded', payment_id: id } });
      expect(await refundState(wes, id)).toEqual([false, '99.00']);
    });

    it('gives renewals without custom_data to the user of the same subscription, then customer', async () => {
      const xan = await t.createUser('xan@example.com');
      const transaction = (
        id: string,
        subscription: string | null,
        custom: Record<string, string> | null,
      ) =>
        paddleEvent(
          'transaction.completed',
          {
            id,
            status: 'completed',
            origin: custom === null ? 'subscription_recurring' : 'web',
            customer_id: 'ctm_01x',
            subscription_id: subscription,
            currency_code: 'EUR',
            collection_mode: 'automatic',
            custom_data: custom,
            items: [PADDLE_PRO_YEARLY],
            payments: [],
            details: {
              tax_rates_used: [],
              line_items: [],
              totals: { subtotal: '9900', discount: '0', tax: '0', total: '9900' },
            },
          },
          '2026-11-26T10:00:00.000000Z',
        );
      const first = await paddle(
        transaction('txn_01x1', 'sub_01x', { user_id: String(xan.id), email: 'xan@example.com' }),
      );
      expect(first.body.data.result).toBe('recorded');
      const renewal = await paddle(transaction('txn_01x2', 'sub_01x', null));
      expect(renewal.parsed).toMatchObject({
        eventType: 'transaction.completed',
        data: { id: 'txn_01x2', subscriptionId: 'sub_01x', customData: null },
      });
      expect(renewal.body).toEqual({
        data: { result: 'recorded', payment_id: expect.any(Number) },
      });
      const another = await paddle(transaction('txn_01x3', 'sub_01x_new', null));
      expect(another.body.data.result).toBe('recorded');
      expect((await paymentsOf(xan)).map((p) => [p.payment_id, p.plan_id, p.frequency])).toEqual([
        ['txn_01x1', pro, 'annual'],
        ['txn_01x2', pro, 'annual'],
        ['txn_01x3', pro, 'annual'],
      ]);
      expect(await planOf(xan)).toEqual([pro, '2029-11-26 10:00:00']);
    });
  });

  describe('Lemon Squeezy', () => {
    it('records a partial order refund without un-paying, a renewal by its customer, and subscription payment refunds', async () => {
      const yve = await t.createUser('yve@example.com');
      const order = (attributes: Shape<Order['data']['attributes']>) =>
        lemonEvent(
          { event_name: 'order_created', custom_data: { user_id: String(yve.id) } },
          {
            type: 'orders',
            id: '20',
            attributes: {
              customer_id: 300,
              user_name: 'Yve',
              user_email: 'yve@example.com',
              currency: 'USD',
              subtotal: 999,
              discount_total: 0,
              total: 999,
              status: 'paid',
              refunded: false,
              refunded_amount: 0,
              first_order_item: { variant_id: 42 },
              ...attributes,
            },
          },
        );
      const recorded = await lemon(order({}));
      expect(recorded).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
      const orderId = recorded.data.payment_id as number;

      const refund = lemonEvent(
        { event_name: 'order_refunded', custom_data: { user_id: String(yve.id) } },
        {
          type: 'orders',
          id: '20',
          attributes: {
            customer_id: 300,
            total: 999,
            status: 'paid',
            refunded: false,
            refunded_amount: 300,
          },
        },
      );
      expect(await lemon(refund)).toEqual({ data: { result: 'refunded', payment_id: orderId } });
      expect(await refundState(yve, orderId)).toEqual([true, '3.00']);
      expect(await lemon(refund)).toEqual({ data: { result: 'duplicate', payment_id: orderId } });

      const invoice = (
        event: 'subscription_payment_success' | 'subscription_payment_refunded',
        attributes: Shape<SubscriptionInvoice['data']['attributes']>,
      ) =>
        lemonEvent(
          { event_name: event },
          {
            type: 'subscription-invoices',
            id: '21',
            attributes: {
              subscription_id: 400,
              customer_id: 300,
              user_name: 'Yve',
              user_email: 'yve.card@example.org',
              billing_reason: 'renewal',
              currency: 'USD',
              subtotal: 999,
              discount_total: 0,
              total: 999,
              status: 'paid',
              refunded: false,
              refunded_amount: 0,
              ...attributes,
            },
          },
        );
      const renewal = await lemon(invoice('subscription_payment_success', {}));
      expect(renewal).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
      const renewalId = renewal.data.payment_id as number;
      expect((await paymentsOf(yve)).map((p) => [p.payment_id, p.plan_id, p.status])).toEqual([
        ['order:20', pro, true],
        ['subscription-invoice:21', pro, true],
      ]);
      expect(await planOf(yve)).toEqual([pro, '2027-01-26 10:00:00']);

      expect(
        await lemon(
          invoice('subscription_payment_refunded', {
            status: 'refunded',
            refunded: true,
            refunded_amount: 999,
          }),
        ),
      ).toEqual({ data: { result: 'refunded', payment_id: renewalId } });
      expect(await refundState(yve, renewalId)).toEqual([false, '9.99']);
      expect(await refundState(yve, orderId)).toEqual([true, '3.00']);
    });
  });
});
