import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';

export interface UploadField {
  /** Largest accepted file in bytes; a larger one is a 413 naming the field. */
  maxBytes: number;
}

/**
 * Where accepted files go. Only memory exists today (small files such as logos); a route that
 * takes big archives will add a disk variant here without changing the decorator's shape.
 */
export type UploadStorage = 'memory';

export interface UploadsSpec {
  fields: Readonly<Record<string, UploadField>>;
  storage?: UploadStorage;
}

export const UPLOADS_KEY = 'linkdock:uploads';

/** Declares the file fields a handler accepts; file parts of any other name are dropped. */
export function Uploads(
  fields: Readonly<Record<string, UploadField>>,
  storage: UploadStorage = 'memory',
): MethodDecorator {
  return SetMetadata(UPLOADS_KEY, { fields, storage } satisfies UploadsSpec);
}

/** One accepted file, held in memory. */
export interface UploadedFile {
  field: string;
  originalName: string;
  size: number;
  buffer: Buffer;
}

export type UploadedFiles = Readonly<Record<string, UploadedFile>>;

/** The files of the request keyed by field name (the last part wins when a field repeats). */
export const Uploaded = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const req = ctx.switchToHttp().getRequest<Request>();
  const files = (req.files ?? []) as Express.Multer.File[];
  const out: Record<string, UploadedFile> = {};
  for (const f of files) {
    out[f.fieldname] = {
      field: f.fieldname,
      originalName: f.originalname,
      size: f.size,
      buffer: f.buffer,
    };
  }
  return out;
});
