import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { firstValueFrom, isObservable } from 'rxjs';
import { AppError } from '@app/common';
import { Actor } from './actor';
import { ApiRateLimiter } from './api-rate-limiter';
import { IS_PUBLIC } from './public.decorator';

/**
 * The global guard: every route needs a valid API key unless it is marked @Public(). A request
 * that fails authentication is counted against its client address's rate limit here (a 429 once
 * that budget is spent, else the 401), so guessing keys is throttled however many keys are tried;
 * a valid key is counted against its own budget by ApiKeyThrottlerGuard, which runs next.
 */
@Injectable()
export class ApiKeyGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: ApiRateLimiter,
  ) {
    super({ session: false });
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) {
      return true;
    }
    try {
      const result = super.canActivate(context);
      return isObservable(result) ? await firstValueFrom(result) : await result;
    } catch (error) {
      if (error instanceof AppError && error.code === 'unauthorized') {
        const http = context.switchToHttp();
        const req = http.getRequest<Request>();
        await this.limiter.consume(http.getResponse<Response>(), this.limiter.addressTracker(req));
      }
      throw error;
    }
  }

  override handleRequest<T = Actor>(
    err: unknown,
    actor: T | false,
    _info: unknown,
    context: ExecutionContext,
  ): T {
    if (err) {
      throw err instanceof Error ? err : new Error('Authentication failed');
    }
    if (!actor) {
      const header = context.switchToHttp().getRequest<Request>().headers.authorization;
      throw new AppError(
        'unauthorized',
        header
          ? 'The API key is not valid: it is unknown, revoked or expired.'
          : 'The request is missing the Bearer Authentication header.',
      );
    }
    return actor;
  }
}
