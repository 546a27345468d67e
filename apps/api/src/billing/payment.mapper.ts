import { ApiProperty } from '@nestjs/swagger';
import {
  PAYMENT_FREQUENCIES,
  PAYMENT_PROCESSORS,
  PAYMENT_TYPES,
  type PaymentPayload,
} from '@app/billing';

/** A payment of the account (the seed's fields, plus the processor's id, base, discount and code). */
export class PaymentResponse implements PaymentPayload {
  @ApiProperty({ example: 7 }) id!: number;
  @ApiProperty({ type: Number, nullable: true, example: 2 }) plan_id!: number | null;
  @ApiProperty({ enum: PAYMENT_PROCESSORS, example: 'stripe' }) processor!: string;
  @ApiProperty({ enum: PAYMENT_TYPES, example: 'recurring' }) type!: string;
  @ApiProperty({ enum: PAYMENT_FREQUENCIES, example: 'monthly' }) frequency!: string;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Ada Lovelace' }) name!: string | null;
  @ApiProperty({ example: '19.99', description: 'Decimal string, in the currency’s minor digits.' })
  base_amount!: string;
  @ApiProperty({ example: '0.00' }) discount_amount!: string;
  @ApiProperty({
    example: '19.99',
    description: 'What was paid: a decimal string (JPY "500", KWD "1.250").',
  })
  total_amount!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) code!: string | null;
  @ApiProperty({ example: 'in_1QxYz', description: 'The processor’s own id of the payment.' })
  payment_id!: string;
  @ApiProperty({ example: true, description: 'false once fully refunded.' }) status!: boolean;
  @ApiProperty({
    example: '0.00',
    description:
      'Refunded so far, a decimal string like total_amount: a partial refund leaves status true; a full refund makes it total_amount (docs/billing.md, "Refunds").',
  })
  refunded_amount!: string;
  @ApiProperty({ example: '2026-11-26 10:00:00' }) datetime!: string;
}
