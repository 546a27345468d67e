import { refundedAfter } from './refund-rule';

describe(refundedAfter.name, () => {
  const paid = { total_amount: 999, refunded_amount: 0, status: true };

  it('marks a full refund: status false, the whole total refunded', () => {
    expect(refundedAfter(paid, { amount: 999, cumulative: true, full: true })).toEqual({
      total_amount: 999,
      refunded_amount: 999,
      status: false,
    });
    // Whatever amount the processor reports with it.
    expect(refundedAfter(paid, { amount: 0, cumulative: false, full: true })).toEqual({
      total_amount: 999,
      refunded_amount: 999,
      status: false,
    });
  });

  it('records a partial refund without un-paying', () => {
    expect(refundedAfter(paid, { amount: 300, cumulative: true, full: false })).toEqual({
      total_amount: 999,
      refunded_amount: 300,
      status: true,
    });
  });

  it('takes cumulative amounts as they are, never going down (a replay or a late older event)', () => {
    const once = { ...paid, refunded_amount: 300 };
    expect(refundedAfter(once, { amount: 300, cumulative: true, full: false })).toEqual(once);
    expect(refundedAfter(once, { amount: 100, cumulative: true, full: false })).toEqual(once);
    expect(refundedAfter(once, { amount: 500, cumulative: true, full: false })).toEqual({
      ...once,
      refunded_amount: 500,
    });
  });

  it('adds refunds that are their own amounts (Paddle adjustments)', () => {
    const once = { ...paid, refunded_amount: 300 };
    expect(refundedAfter(once, { amount: 200, cumulative: false, full: false })).toEqual({
      ...once,
      refunded_amount: 500,
    });
  });

  it('counts partial refunds that reach the total as a full one, and never passes the total', () => {
    const most = { ...paid, refunded_amount: 700 };
    expect(refundedAfter(most, { amount: 299, cumulative: false, full: false })).toEqual({
      total_amount: 999,
      refunded_amount: 999,
      status: false,
    });
    expect(refundedAfter(most, { amount: 5000, cumulative: false, full: false })).toEqual({
      total_amount: 999,
      refunded_amount: 999,
      status: false,
    });
  });

  it('leaves a refunded payment refunded', () => {
    const refunded = { total_amount: 999, refunded_amount: 999, status: false };
    expect(refundedAfter(refunded, { amount: 300, cumulative: true, full: false })).toEqual(
      refunded,
    );
  });
});
