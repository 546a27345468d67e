import { applyDecorators, Controller, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOperation,
  ApiProperty,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '@app/auth';
import { ApiDataResponse, ApiErrors, ErrorBodyDto } from '@app/common';
import { WebhookResult, WebhooksService } from './webhooks.service';

/** What a processor's webhook answers (200), in the `data` envelope. */
export class WebhookResultDto implements WebhookResult {
  @ApiProperty({
    enum: ['recorded', 'completed', 'duplicate', 'refunded', 'linked', 'ignored'],
    description:
      '`recorded`: a new payment; `completed`: a payment recorded earlier without a user now ' +
      'has one and was applied; `duplicate`: a replay, nothing written; `refunded`: a refund ' +
      'recorded (in full: status false; in part: refunded_amount); `linked`: more ids of a ' +
      'payment remembered (Stripe `invoice_payment.paid`); `ignored`: an event that records ' +
      'nothing. See docs/billing.md.',
  })
  result!: WebhookResult['result'];

  @ApiProperty({ type: Number, nullable: true, example: 12 })
  payment_id!: number | null;
}

/** The documentation of one processor's webhook: its signature header over the raw body. */
function ApiProcessorWebhook(
  processor: string,
  header: string,
  scheme: string,
  secret: string,
): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      summary: `Receive a ${processor} webhook (sent by ${processor}, no API key)`,
      description:
        `Authenticated by \`${header}\` (${scheme}) over the raw body, checked before the body ` +
        `is read. Served only when ${secret} is set (404 otherwise). A replayed event is 200 ` +
        '`duplicate` and writes nothing. See docs/billing.md.',
      security: [],
    }),
    ApiHeader({ name: header, required: true, description: scheme }),
    ApiBody({
      required: true,
      description: `The event exactly as ${processor} sent it; its bytes are what is signed.`,
      schema: { type: 'object', additionalProperties: true },
    }),
    ApiDataResponse(WebhookResultDto),
    ApiBadRequestResponse({
      description:
        '`invalid_signature`: the header is missing, wrong or out of tolerance; ' +
        '`invalid_event`: signed, but not an event this server can read.',
      type: ErrorBodyDto,
    }),
    ApiErrors(429),
    ApiNotFoundResponse({ description: `${secret} is not set.`, type: ErrorBodyDto }),
  );
}

/**
 * The processors' webhooks, outside /v1 (`/webhooks/{processor}`): public, authenticated by the
 * processor's signature over the raw body (configure-app.ts keeps it raw for these paths).
 */
@ApiTags('payment-webhooks')
@Public()
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('stripe')
  @HttpCode(200)
  @ApiProcessorWebhook(
    'Stripe',
    'Stripe-Signature',
    '`t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">` under the endpoint secret, at most 5 minutes from now',
    'STRIPE_WEBHOOK_SECRET',
  )
  stripe(@Req() req: Request): Promise<WebhookResult> {
    return this.webhooks.receive('stripe', req.body, req.headers);
  }

  @Post('paddle')
  @HttpCode(200)
  @ApiProcessorWebhook(
    'Paddle',
    'Paddle-Signature',
    '`ts=<seconds>;h1=<hex HMAC-SHA256 of "ts:body">` under the notification secret, at most 5 minutes from now',
    'PADDLE_WEBHOOK_SECRET',
  )
  paddle(@Req() req: Request): Promise<WebhookResult> {
    return this.webhooks.receive('paddle', req.body, req.headers);
  }

  @Post('lemonsqueezy')
  @HttpCode(200)
  @ApiProcessorWebhook(
    'Lemon Squeezy',
    'X-Signature',
    'the hex HMAC-SHA256 of the body under the signing secret',
    'LEMONSQUEEZY_WEBHOOK_SECRET',
  )
  lemonSqueezy(@Req() req: Request): Promise<WebhookResult> {
    return this.webhooks.receive('lemonsqueezy', req.body, req.headers);
  }
}
