import { lemonEvent } from '@app/testing/processor-events';
import { readLemonSqueezyEvent } from './lemonsqueezy-events';

describe(readLemonSqueezyEvent.name, () => {
  it('reads a partial order refund as an amount refunded so far, not a full refund', () => {
    const body = lemonEvent(
      { event_name: 'order_refunded' },
      {
        type: 'orders',
        id: '5',
        attributes: { total: 999, refunded: false, refunded_amount: 300 },
      },
    );
    expect(readLemonSqueezyEvent(JSON.parse(body) as unknown)).toEqual({
      kind: 'refund',
      refund: {
        processor: 'lemonsqueezy',
        references: [{ kind: 'payment', value: 'order:5' }],
        amount: 300,
        cumulative: true,
        full: false,
        refundId: null,
      },
    });
  });

  it('reads a refunded subscription invoice as a full refund of it', () => {
    const body = lemonEvent(
      { event_name: 'subscription_payment_refunded' },
      {
        type: 'subscription-invoices',
        id: '9',
        attributes: { status: 'refunded', refunded: true, refunded_amount: 999 },
      },
    );
    expect(readLemonSqueezyEvent(JSON.parse(body) as unknown)).toMatchObject({
      kind: 'refund',
      refund: { references: [{ kind: 'payment', value: 'subscription-invoice:9' }], full: true },
    });
  });

  it('reads the subscription and customer of a renewal', () => {
    const body = lemonEvent(
      { event_name: 'subscription_payment_success' },
      {
        type: 'subscription-invoices',
        id: '10',
        attributes: {
          billing_reason: 'renewal',
          status: 'paid',
          subscription_id: 400,
          customer_id: 300,
          currency: 'USD',
          total: 999,
        },
      },
    );
    expect(readLemonSqueezyEvent(JSON.parse(body) as unknown)).toMatchObject({
      kind: 'payment',
      payment: { paymentId: 'subscription-invoice:10', subscriptionId: '400', customerId: '300' },
    });
  });
});
