import {
  Db,
  Outbox,
  PaymentEntity,
  PaymentsRepository,
  PlansRepository,
  UserEntity,
} from '@app/database';
import { type PaymentInput, PaymentsRecorder } from './payments.recorder';
import { PlansService } from './plans.service';

const NOW = new Date('2026-11-26T10:00:00Z');

function payment(values: Partial<PaymentEntity>): PaymentEntity {
  return Object.assign(new PaymentEntity(), {
    id: 1,
    user_id: null,
    plan_id: 2,
    processor: 'stripe',
    payment_id: 'in_1',
    type: 'recurring',
    frequency: 'monthly',
    email: 'billing@example.org',
    name: null,
    currency: 'EUR',
    base_amount: 999,
    discount_amount: 0,
    total_amount: 999,
    code: null,
    status: true,
    refunded_amount: 0,
    processor_subscription_id: 'sub_1',
    processor_customer_id: 'cus_1',
    period_end: null,
    datetime: NOW,
    ...values,
  });
}

function user(id: number, email: string): UserEntity {
  return Object.assign(new UserEntity(), { id, email, plan_id: null, plan_expiration_date: null });
}

const input: PaymentInput = {
  processor: 'stripe',
  paymentId: 'in_1',
  subscriptionId: 'sub_1',
  customerId: 'cus_1',
  periodEnd: null,
  userId: null,
  email: 'billing@example.org',
  name: null,
  planId: 2,
  type: 'recurring',
  frequency: 'monthly',
  currency: 'EUR',
  baseAmount: 999,
  discountAmount: 0,
  totalAmount: 999,
  code: null,
};

describe(PaymentsRecorder.name, () => {
  let payments: jest.Mocked<
    Pick<
      PaymentsRepository,
      'findByAnyRef' | 'addReferences' | 'insert' | 'save' | 'matchedByPayer' | 'findByProcessorId'
    >
  >;
  let planRows: { findById: jest.Mock; setUserPlan: jest.Mock };
  let users: { findOneBy: jest.Mock };
  let recorder: PaymentsRecorder;

  beforeEach(() => {
    payments = {
      findByAnyRef: jest.fn().mockResolvedValue(null),
      addReferences: jest.fn().mockResolvedValue(true),
      insert: jest.fn((values: Omit<PaymentEntity, 'id'>) =>
        Promise.resolve(payment({ ...values, id: 9 })),
      ),
      save: jest.fn((p: PaymentEntity) => Promise.resolve(p)),
      matchedByPayer: jest.fn().mockResolvedValue(null),
      findByProcessorId: jest.fn().mockResolvedValue(null),
    };
    planRows = {
      findById: jest.fn((id: number) => Promise.resolve({ id })),
      setUserPlan: jest.fn().mockResolvedValue(undefined),
    };
    users = { findOneBy: jest.fn().mockResolvedValue(null) };
    // The account log and outbox rows go through the manager's insert builder.
    const builder = {
      insert: () => builder,
      into: () => builder,
      values: () => builder,
      execute: () => Promise.resolve({}),
    };
    const db = {
      dialect: 'sqlite',
      write: <T>(work: () => Promise<T>) => work(),
      repository: () => users,
      manager: { createQueryBuilder: () => builder },
    };
    recorder = new PaymentsRecorder(
      payments as unknown as PaymentsRepository,
      { forget: jest.fn() } as unknown as PlansService,
      planRows as unknown as PlansRepository,
      db as unknown as Db,
      { write: jest.fn().mockResolvedValue(undefined) } as unknown as Outbox,
      { now: () => new Date(NOW) },
    );
  });

  it('gives a payment to the user of an earlier payment of its subscription before any email match', async () => {
    const sam = user(5, 'sam@example.com');
    payments.matchedByPayer.mockResolvedValueOnce(payment({ id: 3, user_id: 5 }));
    users.findOneBy.mockImplementation((where: { id?: number }) =>
      Promise.resolve(where.id === 5 ? sam : user(6, 'billing@example.org')),
    );
    const { result, payment: recorded } = await recorder.record(input);
    expect([result, recorded.user_id]).toEqual(['recorded', 5]);
    expect(payments.matchedByPayer).toHaveBeenCalledWith(
      'stripe',
      'processor_subscription_id',
      'sub_1',
    );
    expect(users.findOneBy.mock.calls).toEqual([[{ id: 5 }]]);
    expect(planRows.setUserPlan).toHaveBeenCalledWith(5, 2, new Date('2026-12-26T10:00:00Z'));
  });

  it('completes a payment recorded without a user when a later event names one, and applies it once', async () => {
    const unmatched = payment({ user_id: null });
    payments.findByAnyRef.mockResolvedValue(unmatched);
    const tia = user(7, 'tia@example.com');
    users.findOneBy.mockImplementation((where: { id?: number }) =>
      Promise.resolve(where.id === 7 ? tia : null),
    );
    const first = await recorder.record({ ...input, userId: 7 });
    expect([first.result, first.payment.user_id]).toEqual(['completed', 7]);
    expect(payments.insert).not.toHaveBeenCalled();
    expect(planRows.setUserPlan).toHaveBeenCalledTimes(1);

    const again = await recorder.record({ ...input, userId: 7 });
    expect(again.result).toBe('duplicate');
    expect(planRows.setUserPlan).toHaveBeenCalledTimes(1);
  });

  it('ends the plan with the period paid for, never before the current end', async () => {
    const vic = Object.assign(user(8, 'vic@example.com'), {
      plan_expiration_date: new Date('2026-12-26T10:00:00Z'),
    });
    users.findOneBy.mockResolvedValue(vic);
    await recorder.record({
      ...input,
      userId: 8,
      periodEnd: new Date('2026-12-10T10:00:00Z'),
    });
    expect(planRows.setUserPlan).toHaveBeenLastCalledWith(8, 2, new Date('2026-12-26T10:00:00Z'));
    await recorder.record({
      ...input,
      paymentId: 'in_2',
      userId: 8,
      periodEnd: new Date('2027-01-26T10:00:00Z'),
    });
    expect(planRows.setUserPlan).toHaveBeenLastCalledWith(8, 2, new Date('2027-01-26T10:00:00Z'));
  });

  it('applies a refund once per refund id, and a cumulative amount seen before as a duplicate', async () => {
    const paid = payment({ user_id: 5 });
    payments.findByAnyRef.mockResolvedValue(paid);
    const refund = {
      processor: 'paddle' as const,
      references: [{ kind: 'transaction', value: 'txn_1' }],
      amount: 300,
      cumulative: false,
      full: false,
      refundId: 'adj_1',
    };
    expect(await recorder.refund(refund)).toMatchObject({
      result: 'refunded',
      payment: { refunded_amount: 300, status: true },
    });
    payments.addReferences.mockResolvedValueOnce(false);
    expect(await recorder.refund(refund)).toMatchObject({
      result: 'duplicate',
      payment: { refunded_amount: 300, status: true },
    });
    const cumulative = {
      ...refund,
      processor: 'stripe' as const,
      cumulative: true,
      refundId: null,
    };
    expect(await recorder.refund(cumulative)).toMatchObject({ result: 'duplicate' });
    expect(payments.save).toHaveBeenCalledTimes(1);
  });
});
