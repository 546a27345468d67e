import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { defer, Observable } from 'rxjs';
import { EnvelopeInterceptor } from './envelope.interceptor';
import { MultipartInterceptor } from './multipart.interceptor';
import { RejectNulInterceptor } from './reject-nul.interceptor';

/**
 * The API's one global interceptor: multipart parsing, then the NUL check, then the envelope, in
 * that order, as three global interceptors would run them. Nest wraps each global interceptor of
 * every request in an async resource, a deferred observable and a merge, which cost about as much
 * as the three interceptors' own work on a short request; chained here, that happens once. Each
 * step is deferred, so that a step that throws (the NUL check) still fails inside the multipart
 * step's pipe, which removes the request's upload files on any error.
 */
@Injectable()
export class ApiInterceptor implements NestInterceptor {
  constructor(
    private readonly multipart: MultipartInterceptor,
    private readonly rejectNul: RejectNulInterceptor,
    private readonly envelope: EnvelopeInterceptor,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const enveloped: CallHandler = {
      handle: () => defer(() => this.envelope.intercept(context, next)),
    };
    const checked: CallHandler = {
      handle: () => defer(() => this.rejectNul.intercept(context, enveloped)),
    };
    return this.multipart.intercept(context, checked);
  }
}
