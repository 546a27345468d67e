import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { IncomingMessage } from 'node:http';
import type { BlockList } from 'node:net';
import { buildTrustedProxies, clientIp } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { bearerToken } from './bearer';
import { hashApiKey } from './api-key';

/**
 * The rate limit: one budget per API key across all routes, or per client address for requests
 * without a key. It runs before authentication and needs no database: the key's hash identifies
 * it, so 401s carry the rate-limit headers too and guessing keys is throttled as well. The client
 * address is the socket's peer, or X-Forwarded-For when the peer is one of TRUSTED_PROXIES.
 */
@Injectable()
export class ApiKeyThrottlerGuard extends ThrottlerGuard {
  private readonly trusted: BlockList | null;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(options, storage, reflector);
    this.trusted = buildTrustedProxies(config.trustedProxies);
  }

  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    const headers = req.headers as Record<string, unknown> | undefined;
    const token = bearerToken(headers?.authorization);
    if (token) {
      return Promise.resolve(`key:${hashApiKey(token)}`);
    }
    return Promise.resolve(
      `ip:${clientIp(req as unknown as IncomingMessage, this.trusted) || 'unknown'}`,
    );
  }

  protected override generateKey(
    _context: ExecutionContext,
    tracker: string,
    name: string,
  ): string {
    return `ratelimit:${name}:${tracker}`;
  }
}
