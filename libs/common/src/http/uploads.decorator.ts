import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { AppConfig } from '@app/config';

export interface UploadField {
  /**
   * Largest accepted file in bytes (or a function of the configuration, for bounds an operator
   * sets); a larger one is a 413 naming the field.
   */
  maxBytes: number | ((config: AppConfig) => number);
}

/**
 * Where accepted files go: `memory` for small files such as logos (read with @Uploaded()),
 * `disk` for archives, written to `DATA_DIR/tmp/uploads` and read with @UploadedOnDisk(). Files
 * on disk are deleted once the handler has finished, whatever its outcome.
 */
export type UploadStorage = 'memory' | 'disk';

export interface UploadsSpec {
  fields: Readonly<Record<string, UploadField>>;
  storage: UploadStorage;
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

/** One accepted file in a temporary file that lives until the handler has finished. */
export interface UploadedDiskFile {
  field: string;
  originalName: string;
  size: number;
  path: string;
}

export type UploadedDiskFiles = Readonly<Record<string, UploadedDiskFile>>;

function requestFiles(ctx: ExecutionContext): Express.Multer.File[] {
  return (ctx.switchToHttp().getRequest<Request>().files ?? []) as Express.Multer.File[];
}

/** The files of the request keyed by field name (the last part wins when a field repeats). */
export const Uploaded = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const out: Record<string, UploadedFile> = {};
  for (const f of requestFiles(ctx)) {
    if (f.buffer) {
      out[f.fieldname] = {
        field: f.fieldname,
        originalName: f.originalname,
        size: f.size,
        buffer: f.buffer,
      };
    }
  }
  return out;
});

/** The files of a `disk` upload keyed by field name (the last part wins when a field repeats). */
export const UploadedOnDisk = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const out: Record<string, UploadedDiskFile> = {};
  for (const f of requestFiles(ctx)) {
    if (f.path) {
      out[f.fieldname] = {
        field: f.fieldname,
        originalName: f.originalname,
        size: f.size,
        path: f.path,
      };
    }
  }
  return out;
});
