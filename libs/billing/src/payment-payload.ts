import { formatDateTime } from '@app/common';
import { PaymentEntity } from '@app/database';
import { formatMinor } from './money';

/** A payment as GET /v1/payments/{id} shows it and as the `payment.created` event carries it. */
export interface PaymentPayload {
  id: number;
  plan_id: number | null;
  processor: string;
  type: string;
  frequency: string;
  email: string;
  name: string | null;
  base_amount: string;
  discount_amount: string;
  total_amount: string;
  currency: string;
  code: string | null;
  payment_id: string;
  status: boolean;
  refunded_amount: string;
  datetime: string;
}

export function paymentPayload(payment: PaymentEntity): PaymentPayload {
  return {
    id: payment.id,
    plan_id: payment.plan_id,
    processor: payment.processor,
    type: payment.type,
    frequency: payment.frequency,
    email: payment.email,
    name: payment.name,
    base_amount: formatMinor(payment.base_amount, payment.currency),
    discount_amount: formatMinor(payment.discount_amount, payment.currency),
    total_amount: formatMinor(payment.total_amount, payment.currency),
    currency: payment.currency,
    code: payment.code,
    payment_id: payment.payment_id,
    status: payment.status,
    refunded_amount: formatMinor(payment.refunded_amount, payment.currency),
    datetime: formatDateTime(payment.datetime),
  };
}
