import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppError, HandlerMemo } from '@app/common';
import { Actor } from './actor';
import { IS_PUBLIC } from './public.decorator';

const FULL_SCOPE = 'linkdock:full-scope';

/** Marks handlers that a `read` key may not call even with GET (managing API keys). */
export const RequiresFullScope = (): MethodDecorator & ClassDecorator =>
  SetMetadata(FULL_SCOPE, true);

/** Methods that change nothing, which a `read` key may use. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * A global guard, after authentication and the rate limit: a `read` key may only read (GET), and
 * never manage API keys. Public routes and actors without a scope (full) pass.
 */
@Injectable()
export class ApiKeyScopeGuard implements CanActivate {
  private readonly routes: HandlerMemo<{ isPublic: boolean; fullScope: boolean }>;

  constructor(reflector: Reflector) {
    this.routes = new HandlerMemo((targets) => ({
      isPublic: reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) === true,
      fullScope: reflector.getAllAndOverride<boolean | undefined>(FULL_SCOPE, targets) === true,
    }));
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') {
      return true;
    }
    const route = this.routes.of(context);
    if (route.isPublic) {
      return true;
    }
    const req = context.switchToHttp().getRequest<Request & { user?: Actor }>();
    if (req.user?.scope !== 'read') {
      return true;
    }
    if (route.fullScope) {
      throw new AppError('forbidden', 'Managing API keys needs a key with the full scope.');
    }
    if (!READ_METHODS.has(req.method)) {
      throw new AppError(
        'forbidden',
        'This API key has the read scope: it may only make GET requests.',
      );
    }
    return true;
  }
}
