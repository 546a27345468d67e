import { stripeEvent, type StripeEventObject } from '@app/testing/processor-events';
import { planLine, readStripeEvent } from './stripe-events';

/** A verified event as the controller hands it over: the JSON Stripe sent, parsed. */
function read<T extends Parameters<typeof stripeEvent>[0]>(type: T, object: StripeEventObject<T>) {
  return readStripeEvent(JSON.parse(stripeEvent(type, object, 1_795_000_000)) as unknown);
}

type Line = NonNullable<NonNullable<StripeEventObject<'invoice.paid'>['lines']>['data']>[number];

function line(id: string, price: string, amount: number, proration: boolean): Line {
  return {
    id,
    object: 'line_item',
    amount,
    period: { start: 1_795_000_000, end: 1_797_600_000 },
    pricing: { type: 'price_details', price_details: { price, product: 'prod_1' } },
    parent: {
      type: 'subscription_item_details',
      subscription_item_details: { proration, subscription_item: 'si_1', invoice_item: null },
    },
  };
}

describe(readStripeEvent.name, () => {
  it('picks the line of the subscription item paid for, never a proration credit', () => {
    const credit = line('il_credit', 'price_basic', -249, true);
    const charge = line('il_charge', 'price_pro', 499, true);
    const next = line('il_next', 'price_pro', 999, false);
    expect(planLine([credit, charge])).toBe(charge);
    expect(planLine([credit, charge, next])).toBe(next);
    expect(planLine([credit])).toBeUndefined();
    expect(planLine('junk')).toBeUndefined();
  });

  it('reads a paid invoice: price of that line, its period end, subscription, customer and payment intents', () => {
    const outcome = read('invoice.paid', {
      id: 'in_1',
      object: 'invoice',
      customer: 'cus_1',
      customer_email: 'a@example.com',
      currency: 'eur',
      subtotal: 250,
      amount_paid: 250,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: 'sub_1', metadata: { user_id: '7' } },
      },
      lines: {
        data: [line('il_c', 'price_basic', -249, true), line('il_p', 'price_pro', 499, true)],
      },
      payments: { data: [{ payment: { type: 'payment_intent', payment_intent: 'pi_1' } }] },
    });
    expect(outcome).toMatchObject({
      kind: 'payment',
      payment: {
        paymentId: 'in_1',
        priceId: 'price_pro',
        userId: 7,
        subscriptionId: 'sub_1',
        customerId: 'cus_1',
        periodEnd: new Date(1_797_600_000 * 1000),
        references: [{ kind: 'payment_intent', value: 'pi_1' }],
        totalAmount: 250,
      },
    });
  });

  it('reads a partial charge refund as an amount refunded so far, found by payment intent and charge', () => {
    expect(
      read('charge.refunded', {
        id: 'ch_1',
        object: 'charge',
        amount: 999,
        amount_refunded: 300,
        refunded: false,
        payment_intent: 'pi_1',
      }),
    ).toEqual({
      kind: 'refund',
      refund: {
        processor: 'stripe',
        references: [
          { kind: 'payment_intent', value: 'pi_1' },
          { kind: 'charge', value: 'ch_1' },
        ],
        amount: 300,
        cumulative: true,
        full: false,
        refundId: null,
      },
    });
  });

  it('links the payment intent and charge of an invoice payment to its invoice', () => {
    expect(
      read('invoice_payment.paid', {
        id: 'inpay_1',
        object: 'invoice_payment',
        invoice: 'in_1',
        payment: { type: 'payment_intent', payment_intent: 'pi_1', charge: 'ch_1' },
      }),
    ).toEqual({
      kind: 'link',
      processor: 'stripe',
      paymentKey: 'in_1',
      references: [
        { kind: 'payment_intent', value: 'pi_1' },
        { kind: 'charge', value: 'ch_1' },
        { kind: 'invoice_payment', value: 'inpay_1' },
      ],
    });
  });

  it('waits for a delayed payment: an unpaid session records nothing, its success does, its failure is logged', () => {
    const session: StripeEventObject<'checkout.session.completed'> = {
      id: 'cs_1',
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'unpaid',
      payment_intent: 'pi_1',
      currency: 'eur',
      amount_total: 500,
    };
    expect(read('checkout.session.completed', session)).toMatchObject({ kind: 'ignored' });
    expect(
      read('checkout.session.async_payment_succeeded', { ...session, payment_status: 'paid' }),
    ).toMatchObject({
      kind: 'payment',
      payment: {
        paymentId: 'pi_1',
        references: [
          { kind: 'checkout_session', value: 'cs_1' },
          { kind: 'payment_intent', value: 'pi_1' },
        ],
        type: 'one_time',
      },
    });
    expect(read('checkout.session.async_payment_failed', session)).toEqual({
      kind: 'ignored',
      reason:
        'the delayed payment of checkout session cs_1 failed: nothing was paid, nothing is recorded',
      warn: true,
    });
  });
});
