import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import { Observable } from 'rxjs';

/**
 * Parses `multipart/form-data` bodies for every route, after authentication (guards run first, so
 * an anonymous client cannot make the server read a large body). Fields only: file parts are
 * drained and dropped until a route declares the files it accepts.
 */
@Injectable()
export class MultipartInterceptor implements NestInterceptor {
  private readonly parse = multer({
    storage: multer.memoryStorage(),
    limits: { fieldSize: 1024 * 1024, fields: 1000, parts: 2000 },
    fileFilter: (_req, _file, accept) => accept(null, false),
  }).any();

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() === 'http') {
      const http = context.switchToHttp();
      const req = http.getRequest<Request>();
      if (req.is('multipart/form-data')) {
        await new Promise<void>((resolve, reject) =>
          this.parse(req, http.getResponse<Response>(), (err: unknown) =>
            err
              ? reject(err instanceof Error ? err : new Error('Multipart parsing failed'))
              : resolve(),
          ),
        );
      }
    }
    return next.handle();
  }
}
