import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerException,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import {
  buildTrustedProxies,
  clientIp,
  type TrustedProxies,
  type UncountedRequests,
} from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { hashApiKey } from './api-key';

/** One rate-limit window: `limit` requests per `ttl` milliseconds, then blocked for `blockDuration`. */
export interface RateBudget {
  name: string;
  limit: number;
  ttl: number;
  blockDuration: number;
}

/**
 * Counts requests against a budget and writes the rate-limit headers. A valid API key is counted
 * by the key; anything else (no key, an unknown, revoked or expired one) by the client address,
 * so guessing keys spends the guesser's own budget and nobody else's.
 */
@Injectable()
export class ApiRateLimiter implements UncountedRequests {
  /** The app's one throttler, as ThrottlerModule was configured with it. */
  readonly budget: RateBudget;
  private readonly trusted: TrustedProxies | null;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.budget = defaultBudget(options);
    this.trusted = buildTrustedProxies(config.trustedProxies);
  }

  /** The tracker of a request without a valid key: the socket's peer, or X-Forwarded-For behind TRUSTED_PROXIES. */
  addressTracker(req: IncomingMessage): string {
    return `ip:${clientIp(req, this.trusted) || 'unknown'}`;
  }

  /** Counts a request that failed before authentication (see UncountedRequests) by its address. */
  count(req: IncomingMessage, res: ServerResponse): Promise<void> {
    return this.consume(res, this.addressTracker(req));
  }

  /**
   * The tracker of a request with a valid key: the key's hash, which (unlike its id) is unique
   * across deployments that share one Redis.
   */
  keyTracker(token: string): string {
    return `key:${hashApiKey(token)}`;
  }

  /**
   * Counts one request. Every answer gets X-RateLimit-Limit, -Remaining and -Reset (seconds until
   * the budget is whole again); past the limit, Retry-After too, and a ThrottlerException (429).
   */
  async consume(
    res: ServerResponse,
    tracker: string,
    budget: RateBudget = this.budget,
  ): Promise<void> {
    const { name, limit, ttl, blockDuration } = budget;
    const record = await this.storage.increment(
      `ratelimit:${name}:${tracker}`,
      ttl,
      limit,
      blockDuration,
      name,
    );
    const suffix = name === 'default' ? '' : `-${name}`;
    res.setHeader(`X-RateLimit-Limit${suffix}`, limit);
    if (record.isBlocked) {
      res.setHeader(`X-RateLimit-Remaining${suffix}`, 0);
      res.setHeader(`X-RateLimit-Reset${suffix}`, record.timeToBlockExpire);
      res.setHeader(`Retry-After${suffix}`, record.timeToBlockExpire);
      throw new ThrottlerException();
    }
    res.setHeader(`X-RateLimit-Remaining${suffix}`, Math.max(0, limit - record.totalHits));
    res.setHeader(`X-RateLimit-Reset${suffix}`, record.timeToExpire);
  }
}

function defaultBudget(options: ThrottlerModuleOptions): RateBudget {
  const throttlers = Array.isArray(options) ? options : options.throttlers;
  const first = throttlers[0];
  if (!first || typeof first.limit !== 'number' || typeof first.ttl !== 'number') {
    throw new Error('The API rate limit needs one throttler with a numeric limit and ttl');
  }
  const blockDuration = typeof first.blockDuration === 'number' ? first.blockDuration : first.ttl;
  return { name: first.name ?? 'default', limit: first.limit, ttl: first.ttl, blockDuration };
}
