import { Module } from '@nestjs/common';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WebhooksService } from './webhooks/webhooks.service';

/** Payments (`/v1/payments`) and the processors' webhooks (`/webhooks/*`); plans live in @app/auth. */
@Module({
  controllers: [PaymentsController, WebhooksController],
  providers: [PaymentsService, WebhooksService],
})
export class BillingModule {}
