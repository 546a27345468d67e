import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/auth';
import {
  ApiDataResponse,
  ApiErrors,
  ApiIdParam,
  ApiListResponse,
  IdParam,
  Listing,
  ListParams,
  type ListQuery,
} from '@app/common';
import { PaymentResponse } from './payment.mapper';
import { PAYMENTS_LIST } from './payments.list';
import { PaymentsService } from './payments.service';

/** The account's own payments. Account-level: never through a team (no @TeamAccess: 403 with X-Team-Id). */
@ApiTags('payments')
@ApiErrors(401, 403, 429)
@Controller('payments')
export class PaymentsController {
  constructor(private readonly payments: PaymentsService) {}

  @Get()
  @ApiOperation({
    summary: 'List your payments',
    description:
      'Payments recorded from Stripe, Paddle and Lemon Squeezy webhooks, and offline payments the operator recorded.',
  })
  @Listing(PAYMENTS_LIST)
  @ApiListResponse(PaymentResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.payments.list(actor, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Retrieve one of your payments' })
  @ApiIdParam('Payment id')
  @ApiDataResponse(PaymentResponse)
  @ApiErrors(404)
  get(@CurrentActor() actor: Actor, @IdParam('payment_not_found', 'payment') id: number) {
    return this.payments.get(actor, id);
  }
}
