import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { Observable } from 'rxjs';
import { AppError } from '../errors/app-error';
import { UPLOADS_KEY, UploadsSpec } from './uploads.decorator';

const FIELD_LIMITS = { fieldSize: 1024 * 1024, fields: 1000, parts: 2000 };

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/**
 * Parses `multipart/form-data` bodies for every route, after authentication (guards run first, so
 * an anonymous client cannot make the server read a large body). File parts are drained and
 * dropped unless the handler declares their field with @Uploads(), which also bounds their size.
 */
@Injectable()
export class MultipartInterceptor implements NestInterceptor {
  private readonly fieldsOnly = multer({
    storage: multer.memoryStorage(),
    limits: FIELD_LIMITS,
    fileFilter: (_req, _file, accept) => accept(null, false),
  }).any();

  private readonly parsers = new Map<UploadsSpec, RequestHandler>();

  constructor(private readonly reflector: Reflector) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() === 'http') {
      const http = context.switchToHttp();
      const req = http.getRequest<Request>();
      if (req.is('multipart/form-data')) {
        const spec = this.reflector.get<UploadsSpec | undefined>(UPLOADS_KEY, context.getHandler());
        await this.parse(spec, req, http.getResponse<Response>());
      }
    }
    return next.handle();
  }

  private async parse(spec: UploadsSpec | undefined, req: Request, res: Response): Promise<void> {
    const parser = spec ? this.parserFor(spec) : this.fieldsOnly;
    await new Promise<void>((resolve, reject) =>
      parser(req, res, (err: unknown) => {
        if (!err) {
          resolve();
          return;
        }
        const e = err as { name?: unknown; code?: unknown; field?: unknown };
        if (
          spec &&
          e.name === 'MulterError' &&
          e.code === 'LIMIT_FILE_SIZE' &&
          typeof e.field === 'string'
        ) {
          reject(this.tooLarge(spec, e.field));
          return;
        }
        reject(err instanceof Error ? err : new Error('Multipart parsing failed'));
      }),
    );
    if (spec) {
      // multer has one size limit per request: the largest field's. Each field keeps its own.
      for (const file of (req.files ?? []) as Express.Multer.File[]) {
        if (file.size > spec.fields[file.fieldname].maxBytes) {
          throw this.tooLarge(spec, file.fieldname);
        }
      }
    }
  }

  private tooLarge(spec: UploadsSpec, field: string): AppError {
    const max = spec.fields[field]?.maxBytes ?? 0;
    return new AppError('payload_too_large', `${field} must be at most ${megabytes(max)}.`, field);
  }

  private parserFor(spec: UploadsSpec): RequestHandler {
    let parser = this.parsers.get(spec);
    if (!parser) {
      const names = Object.keys(spec.fields);
      parser = multer({
        storage: multer.memoryStorage(),
        limits: {
          ...FIELD_LIMITS,
          fileSize: Math.max(...names.map((n) => spec.fields[n].maxBytes)),
          files: names.length * 2,
        },
        fileFilter: (_req, file, accept) => accept(null, names.includes(file.fieldname)),
      }).any();
      this.parsers.set(spec, parser);
    }
    return parser;
  }
}
