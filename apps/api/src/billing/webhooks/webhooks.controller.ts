import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '@app/auth';
import { WebhookResult, WebhooksService } from './webhooks.service';

/**
 * The processors' webhooks, outside /v1 (`/webhooks/{processor}`): public, authenticated by the
 * processor's signature over the raw body (configure-app.ts keeps it raw for these paths).
 */
@ApiExcludeController()
@Public()
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('stripe')
  @HttpCode(200)
  stripe(@Req() req: Request): Promise<WebhookResult> {
    return this.webhooks.receive('stripe', req.body, req.headers);
  }

  @Post('paddle')
  @HttpCode(200)
  paddle(@Req() req: Request): Promise<WebhookResult> {
    return this.webhooks.receive('paddle', req.body, req.headers);
  }

  @Post('lemonsqueezy')
  @HttpCode(200)
  lemonSqueezy(@Req() req: Request): Promise<WebhookResult> {
    return this.webhooks.receive('lemonsqueezy', req.body, req.headers);
  }
}
