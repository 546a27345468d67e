import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AppError } from '@app/common';
import { Actor } from './actor';
import { ApiKeysService } from './api-keys.service';
import { ApiRateLimiter } from './api-rate-limiter';
import { bearerToken } from './bearer';
import { IS_PUBLIC } from './public.decorator';

/**
 * The global guard: every route needs a valid API key unless it is marked @Public(). A request
 * that fails authentication is counted against its client address's rate limit here (a 429 once
 * that budget is spent, else the 401), so guessing keys is throttled however many keys are tried;
 * a valid key is counted against its own budget by ApiKeyThrottlerGuard, which runs next.
 *
 * API keys travel only in the Authorization header, `Bearer <key>` with one space, parsed by
 * `bearerToken` exactly as passport-http-bearer parses it (this guard used to run passport): an
 * `access_token` query parameter or body field is ignored like any other unknown field. Whether
 * a handler is public is read once per handler, not on every request.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly publicHandlers = new WeakMap<object, boolean>();

  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: ApiRateLimiter,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.isPublic(context)) {
      return true;
    }
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { user?: Actor }>();
    const header = req.headers.authorization;
    const token = bearerToken(header);
    const actor = token === null ? null : await this.apiKeys.authenticate(token);
    if (actor) {
      req.user = actor;
      return true;
    }
    await this.limiter.consume(http.getResponse<Response>(), this.limiter.addressTracker(req));
    throw new AppError(
      'unauthorized',
      header
        ? 'The API key is not valid: it is unknown, revoked or expired.'
        : 'The request is missing the Bearer Authentication header.',
    );
  }

  private isPublic(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let known = this.publicHandlers.get(handler);
    if (known === undefined) {
      known =
        this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, context.getClass()]) ??
        false;
      this.publicHandlers.set(handler, known);
    }
    return known;
  }
}
