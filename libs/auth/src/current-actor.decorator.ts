import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { Actor } from './actor';

/** The authenticated actor of the request (set by the API key guard). */
export const CurrentActor = createParamDecorator((_data: unknown, ctx: ExecutionContext): Actor => {
  const actor = ctx.switchToHttp().getRequest<Request & { user?: Actor }>().user;
  if (!actor) {
    throw new Error('@CurrentActor() used on a route without the API key guard');
  }
  return actor;
});
