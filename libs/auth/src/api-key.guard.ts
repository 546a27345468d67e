import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AppError, HandlerMemo } from '@app/common';
import { Actor } from './actor';
import { ApiRateLimiter } from './api-rate-limiter';
import { BearerStrategy } from './bearer.strategy';
import { IS_PUBLIC } from './public.decorator';

/** What passport adds to a strategy for one attempt: its outcomes. */
interface StrategyAttempt {
  success(user: unknown): void;
  fail(): void;
  error(err: unknown): void;
  pass(): void;
  redirect(): void;
  authenticate(req: Request, options?: object): void;
}

/**
 * The global guard: every route needs a valid API key unless it is marked @Public(). A request
 * that fails authentication is counted against its client address's rate limit here (a 429 once
 * that budget is spent, else the 401), so guessing keys is throttled however many keys are tried;
 * a valid key is counted against its own budget by ApiKeyThrottlerGuard, which runs next.
 *
 * The header is read and the key checked by the passport-http-bearer strategy (BearerStrategy),
 * given one attempt's outcomes the way passport's own `authenticate` gives them. passport's
 * middleware and @nestjs/passport's AuthGuard around it built a middleware, an options object and
 * two promises per request, about 5 % of an authenticated request's CPU: this guard calls the
 * strategy itself, with the same outcome (no session; the 401's WWW-Authenticate header comes
 * from AllExceptionsFilter, as before).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly publicRoutes: HandlerMemo<boolean>;

  constructor(
    reflector: Reflector,
    private readonly limiter: ApiRateLimiter,
    private readonly strategy: BearerStrategy,
  ) {
    this.publicRoutes = new HandlerMemo(
      (targets) => reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) === true,
    );
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.publicRoutes.of(context)) {
      return true;
    }
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { user?: Actor }>();
    const actor = await this.attempt(req);
    if (!actor) {
      await this.limiter.consume(http.getResponse<Response>(), this.limiter.addressTracker(req));
      throw new AppError(
        'unauthorized',
        req.headers.authorization
          ? 'The API key is not valid: it is unknown, revoked or expired.'
          : 'The request is missing the Bearer Authentication header.',
      );
    }
    req.user = actor;
    return true;
  }

  /** The strategy's verdict on the request: the actor, or false; rejects on its errors. */
  private attempt(req: Request): Promise<Actor | false> {
    return new Promise((resolve, reject) => {
      const attempt = Object.create(this.strategy) as StrategyAttempt;
      attempt.success = (user) => resolve(user as Actor);
      attempt.fail = () => resolve(false);
      attempt.pass = () => resolve(false);
      attempt.redirect = () => resolve(false);
      attempt.error = (err) =>
        reject(err instanceof Error ? err : new Error('Authentication failed'));
      attempt.authenticate(req, { session: false });
    });
  }
}
