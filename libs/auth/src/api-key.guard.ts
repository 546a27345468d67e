import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AppError } from '@app/common';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { Actor } from './actor';
import { IS_PUBLIC } from './public.decorator';

/** The global guard: every route needs a valid API key unless it is marked @Public(). */
@Injectable()
export class ApiKeyGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super({ session: false });
  }

  override canActivate(
    context: ExecutionContext,
  ): boolean | Promise<boolean> | Observable<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    return isPublic ? true : super.canActivate(context);
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
