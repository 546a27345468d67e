import type { IncomingMessage, ServerResponse } from 'node:http';
import { Controller } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { SkipThrottle, Throttle } from '@nestjs/throttler';
import { PlansService } from '@app/billing';
import { Actor } from './actor';
import { ApiKeyThrottlerGuard } from './api-key-throttler.guard';
import { ApiRateLimiter, type RateBudget } from './api-rate-limiter';

const KEY = 'ld_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const ACTOR: Actor = { userId: 7, apiKeyId: 3, isAdmin: false, ownerId: 7 };

@Controller()
class LinksController {
  list(): void {}
  @Throttle({ default: { limit: 3, ttl: 1000 } })
  bulk(): void {}
  @SkipThrottle()
  quiet(): void {}
}

@SkipThrottle()
@Controller()
class HealthController {
  check(): void {}
}

class FakeLimiter implements Pick<ApiRateLimiter, 'addressTracker' | 'keyTracker' | 'consume'> {
  readonly counted: Array<[string, RateBudget | undefined]> = [];
  addressTracker(): string {
    return 'ip:203.0.113.9';
  }
  keyTracker(token: string): string {
    return `key:${token.slice(0, 5)}`;
  }
  consume(_res: ServerResponse, tracker: string, budget?: RateBudget): Promise<void> {
    this.counted.push([tracker, budget]);
    return Promise.resolve();
  }
}

describe(ApiKeyThrottlerGuard.name, () => {
  let limiter: FakeLimiter;
  let planLimit: number | null;

  beforeEach(() => {
    limiter = new FakeLimiter();
    planLimit = null;
  });

  function activate(
    req: Partial<IncomingMessage> & { user?: Actor },
    controller: object,
    handler: () => void,
  ): Promise<boolean> {
    const plans = { apiRateLimit: () => Promise.resolve(planLimit) };
    const guard = new ApiKeyThrottlerGuard(
      { throttlers: [{ name: 'default', limit: 100, ttl: 60_000 }] },
      new Reflector(),
      limiter as unknown as ApiRateLimiter,
      plans as unknown as PlansService,
    );
    const context = new ExecutionContextHost([req, {}, () => {}], controller as never, handler);
    return guard.canActivate(context);
  }

  const withKey = { headers: { authorization: `Bearer ${KEY}` }, user: ACTOR };
  const list = LinksController.prototype.list;

  it("counts a valid key's request against the key, with the module's budget", async () => {
    expect(await activate(withKey, LinksController, list)).toBe(true);
    expect(limiter.counted).toEqual([
      ['key:ld_01', { name: 'default', limit: 100, ttl: 60_000, blockDuration: 60_000 }],
    ]);
  });

  it("takes the plan's api_rate_limit for a key when the plan sets one", async () => {
    planLimit = 7;
    await activate(withKey, LinksController, list);
    expect(limiter.counted).toEqual([
      ['key:ld_01', { name: 'default', limit: 7, ttl: 60_000, blockDuration: 60_000 }],
    ]);
  });

  it('counts a request without an actor (a public route) against its address', async () => {
    await activate({ headers: {} }, LinksController, list);
    expect(limiter.counted).toEqual([
      ['ip:203.0.113.9', { name: 'default', limit: 100, ttl: 60_000, blockDuration: 60_000 }],
    ]);
  });

  it('keeps @Throttle() on a handler and @SkipThrottle() on a handler or a class', async () => {
    await activate(withKey, LinksController, LinksController.prototype.bulk);
    await activate(withKey, LinksController, LinksController.prototype.quiet);
    await activate({ headers: {} }, HealthController, HealthController.prototype.check);
    expect(limiter.counted).toEqual([
      ['key:ld_01', { name: 'default', limit: 3, ttl: 1000, blockDuration: 1000 }],
    ]);
  });
});
