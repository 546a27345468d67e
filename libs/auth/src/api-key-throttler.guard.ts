import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { Actor } from './actor';
import { ApiRateLimiter } from './api-rate-limiter';
import { bearerToken } from './bearer';
import { PlansService } from './billing/plans.service';

/**
 * The rate limit of requests that passed authentication (it runs after ApiKeyGuard, which counts
 * the failed ones itself): one budget per API key across all routes; public routes count per
 * client address. A key's budget is its user's plan's `api_rate_limit` when the plan sets one.
 * The base guard keeps @SkipThrottle() and per-route @Throttle() working.
 */
@Injectable()
export class ApiKeyThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly limiter: ApiRateLimiter,
    private readonly plans: PlansService,
  ) {
    super(options, storage, reflector);
  }

  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, blockDuration, throttler } = request;
    const http = context.switchToHttp();
    const req = http.getRequest<IncomingMessage & { user?: Actor }>();
    // ApiKeyGuard put an actor on the request only if the header's key is valid.
    const token = req.user ? bearerToken(req.headers.authorization) : null;
    const tracker = token ? this.limiter.keyTracker(token) : this.limiter.addressTracker(req);
    const name = throttler.name ?? 'default';
    // A key's requests per minute follow its user's plan (api_rate_limit; -1: API_RATE_LIMIT).
    const planLimit =
      token && req.user && name === 'default'
        ? await this.plans.apiRateLimit(req.user.userId)
        : null;
    await this.limiter.consume(http.getResponse<ServerResponse>(), tracker, {
      name,
      limit: planLimit ?? limit,
      ttl,
      blockDuration,
    });
    return true;
  }
}
