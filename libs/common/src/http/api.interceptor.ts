import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { defer, Observable } from 'rxjs';
import { EnvelopeInterceptor } from './envelope.interceptor';
import { MultipartInterceptor } from './multipart.interceptor';
import { RejectNulInterceptor } from './reject-nul.interceptor';

/**
 * The API's one global interceptor: multipart parsing, then the NUL check, then the envelope, in
 * that order, as three global interceptors would run them. Nest wraps each global interceptor of
 * every request in an async resource, a deferred observable and a merge, which cost about as much
 * as the three interceptors' own work on a short request; chained here, that happens once.
 *
 * A request that is not multipart (nearly all) has no upload to parse or to remove: its NUL check
 * runs at once and the envelope is the only step left. A multipart request goes through each step
 * deferred, so that a step that throws (the NUL check) still fails inside the multipart step's
 * pipe, which removes the request's upload files on any error.
 */
@Injectable()
export class ApiInterceptor implements NestInterceptor {
  constructor(
    private readonly multipart: MultipartInterceptor,
    private readonly rejectNul: RejectNulInterceptor,
    private readonly envelope: EnvelopeInterceptor,
  ) {}

  intercept(
    context: ExecutionContext,
    next: CallHandler,
  ): Observable<unknown> | Promise<Observable<unknown>> {
    if (context.getType() !== 'http') {
      return next.handle();
    }
    const req = context.switchToHttp().getRequest<Request>();
    if (!req.is('multipart/form-data')) {
      this.rejectNul.check(req);
      return this.envelope.intercept(context, next);
    }
    const enveloped: CallHandler = {
      handle: () => defer(() => this.envelope.intercept(context, next)),
    };
    const checked: CallHandler = {
      handle: () => defer(() => this.rejectNul.intercept(context, enveloped)),
    };
    return this.multipart.intercept(context, checked);
  }
}
