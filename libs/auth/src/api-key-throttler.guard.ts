import type { IncomingMessage, ServerResponse } from 'node:http';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectThrottlerOptions, type ThrottlerModuleOptions } from '@nestjs/throttler';
import {
  THROTTLER_BLOCK_DURATION,
  THROTTLER_LIMIT,
  THROTTLER_SKIP,
  THROTTLER_TTL,
} from '@nestjs/throttler/dist/throttler.constants';
import { PlansService } from '@app/billing';
import { HandlerMemo } from '@app/common';
import { Actor } from './actor';
import { ApiRateLimiter, type RateBudget } from './api-rate-limiter';
import { bearerToken } from './bearer';

/**
 * The rate limit of requests that passed authentication (it runs after ApiKeyGuard, which counts
 * the failed ones itself): one budget per API key across all routes; public routes count per
 * client address. A key's budget is its user's plan's `api_rate_limit` when the plan sets one.
 *
 * @SkipThrottle() and per-route @Throttle() work as with the library's ThrottlerGuard, which this
 * guard replaced: that one read six decorators per throttler on every request and awaited each
 * value; here the budgets of a route are read once per handler. A throttler's limit, ttl and
 * block duration must be numbers (this app's are), not functions of the request.
 */
@Injectable()
export class ApiKeyThrottlerGuard implements CanActivate {
  private readonly routes: HandlerMemo<readonly RateBudget[]>;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    reflector: Reflector,
    private readonly limiter: ApiRateLimiter,
    private readonly plans: PlansService,
  ) {
    const throttlers = Array.isArray(options) ? options : options.throttlers;
    this.routes = new HandlerMemo((targets) =>
      throttlers.flatMap((throttler): RateBudget[] => {
        const name = throttler.name ?? 'default';
        const read = (key: string): unknown => reflector.getAllAndOverride(key + name, targets);
        if (read(THROTTLER_SKIP)) {
          return [];
        }
        const ttl = numberOf(read(THROTTLER_TTL) ?? throttler.ttl, 'ttl', name);
        return [
          {
            name,
            limit: numberOf(read(THROTTLER_LIMIT) ?? throttler.limit, 'limit', name),
            ttl,
            blockDuration: numberOf(
              read(THROTTLER_BLOCK_DURATION) ?? throttler.blockDuration ?? ttl,
              'blockDuration',
              name,
            ),
          },
        ];
      }),
    );
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const budgets = this.routes.of(context);
    if (budgets.length === 0) {
      return true;
    }
    const http = context.switchToHttp();
    const req = http.getRequest<IncomingMessage & { user?: Actor }>();
    const res = http.getResponse<ServerResponse>();
    // ApiKeyGuard put an actor on the request only if the header's key is valid.
    const token = req.user ? bearerToken(req.headers.authorization) : null;
    const tracker = token ? this.limiter.keyTracker(token) : this.limiter.addressTracker(req);
    for (const budget of budgets) {
      // A key's requests per minute follow its user's plan (api_rate_limit; -1: API_RATE_LIMIT).
      const planLimit =
        token && req.user && budget.name === 'default'
          ? await this.plans.apiRateLimit(req.user.userId)
          : null;
      await this.limiter.consume(
        res,
        tracker,
        planLimit === null ? budget : { ...budget, limit: planLimit },
      );
    }
    return true;
  }
}

function numberOf(value: unknown, what: string, throttler: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Error(`The ${what} of the rate limit "${throttler}" must be a number`);
  }
  return value;
}
