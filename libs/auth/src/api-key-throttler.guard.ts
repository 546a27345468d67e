import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { bearerToken } from './bearer';
import { hashApiKey } from './api-key';

/**
 * The rate limit: one budget per API key across all routes, or per client address for requests
 * without a key. It runs before authentication and needs no database: the key's hash identifies
 * it, so 401s carry the rate-limit headers too and guessing keys is throttled as well.
 */
@Injectable()
export class ApiKeyThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    const headers = req.headers as Record<string, unknown> | undefined;
    const token = bearerToken(headers?.authorization);
    if (token) {
      return Promise.resolve(`key:${hashApiKey(token)}`);
    }
    const socket = req.socket as { remoteAddress?: string } | undefined;
    return Promise.resolve(`ip:${socket?.remoteAddress ?? 'unknown'}`);
  }

  protected override generateKey(
    _context: ExecutionContext,
    tracker: string,
    name: string,
  ): string {
    return `ratelimit:${name}:${tracker}`;
  }
}
