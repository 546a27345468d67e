import {
  CallHandler,
  ExecutionContext,
  Inject,
  Injectable,
  NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { map, Observable } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { Paginated, toListEnvelope } from './paginated';

const RAW_RESPONSE = 'linkdock:raw-response';

/** Opts a handler out of the `{data}` envelope (health checks, files). */
export const RawResponse = (): MethodDecorator & ClassDecorator => SetMetadata(RAW_RESPONSE, true);

/** Wraps every handler result as `{data}`, and a Paginated result as the list envelope. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const raw = this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (raw || context.getType() !== 'http') {
      return next.handle();
    }
    const req = context.switchToHttp().getRequest<Request>();
    return next
      .handle()
      .pipe(
        map((result: unknown) =>
          result instanceof Paginated
            ? toListEnvelope(result, this.config.appUrl, req.originalUrl)
            : { data: result },
        ),
      );
  }
}
