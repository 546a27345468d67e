import { paddleEvent } from '@app/testing/processor-events';
import { readPaddleEvent } from './paddle-events';

const AT = '2026-11-26T10:00:00.000000Z';

describe(readPaddleEvent.name, () => {
  const adjustment = (status: 'approved' | 'pending_approval', action: 'refund' | 'credit') =>
    JSON.parse(
      paddleEvent(
        'adjustment.updated',
        {
          id: 'adj_01',
          action,
          type: 'partial',
          transaction_id: 'txn_01',
          status,
          totals: { total: '3000', currency_code: 'EUR' },
        },
        AT,
      ),
    ) as unknown;

  it('reads an approved refund adjustment as a refund of its own amount, applied once', () => {
    expect(readPaddleEvent(adjustment('approved', 'refund'))).toEqual({
      kind: 'refund',
      refund: {
        processor: 'paddle',
        references: [{ kind: 'transaction', value: 'txn_01' }],
        amount: 3000,
        cumulative: false,
        full: false,
        refundId: 'adj_01',
      },
    });
  });

  it('ignores a refund not approved yet and adjustments that are not refunds', () => {
    expect(readPaddleEvent(adjustment('pending_approval', 'refund'))).toMatchObject({
      kind: 'ignored',
    });
    expect(readPaddleEvent(adjustment('approved', 'credit'))).toMatchObject({ kind: 'ignored' });
  });

  it('reads the subscription and customer of a transaction', () => {
    const body = paddleEvent(
      'transaction.completed',
      { id: 'txn_02', subscription_id: 'sub_01', customer_id: 'ctm_01', currency_code: 'EUR' },
      AT,
    );
    expect(readPaddleEvent(JSON.parse(body) as unknown)).toMatchObject({
      kind: 'payment',
      payment: { paymentId: 'txn_02', subscriptionId: 'sub_01', customerId: 'ctm_01' },
    });
  });
});
