import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError } from '../errors/app-error';
import type { UploadsSpec } from './uploads.decorator';

const STALE_UPLOAD_MS = 60 * 60 * 1000;
const FIELD_LIMITS = { fieldSize: 1024 * 1024, fields: 1000, parts: 2000 };

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/**
 * Parses `multipart/form-data` bodies for every route, after authentication (RequestGuard runs
 * last of the guards, so an anonymous client cannot make the server read a large body). File
 * parts are drained and dropped unless the handler declares their field with @Uploads(), which
 * also bounds their size. Files of `disk` uploads are removed once the handler is done, before the
 * response is written (see uploadsRemoval).
 */
@Injectable()
export class MultipartParser implements OnApplicationBootstrap {
  private readonly logger = new Logger(MultipartParser.name);
  private readonly fieldsOnly = multer({
    storage: multer.memoryStorage(),
    limits: FIELD_LIMITS,
    fileFilter: (_req, _file, accept) => accept(null, false),
  }).any();

  private readonly parsers = new Map<UploadsSpec, RequestHandler>();
  private readonly uploadDir: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.uploadDir = join(config.dataDir, 'tmp', 'uploads');
  }

  /** Temporary files of a process that stopped mid-request are removed at the next start. */
  onApplicationBootstrap(): void {
    this.removeStaleUploads().catch((error: unknown) =>
      this.logger.warn(`Could not clean ${this.uploadDir}: ${String(error)}`),
    );
  }

  /** Removes upload files older than an hour (no request takes that long); returns how many. */
  async removeStaleUploads(now = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.uploadDir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names.filter((n) => /^[0-9a-f]{32}\.upload$/.test(n))) {
      const path = join(this.uploadDir, name);
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs > STALE_UPLOAD_MS) {
        await rm(path, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  /**
   * Parses the body of a multipart request into `req.body` and `req.files` (the handler's
   * @Uploads() spec, or fields only). Files already written when it fails are removed with the
   * error's answer (uploadsRemoval).
   */
  async parse(req: Request, res: Response, spec: UploadsSpec | undefined): Promise<void> {
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
        reject(multipartError(err));
      }),
    );
    if (spec) {
      // multer has one size limit per request: the largest field's. Each field keeps its own.
      for (const file of (req.files ?? []) as Express.Multer.File[]) {
        if (file.size > this.maxBytes(spec, file.fieldname)) {
          throw this.tooLarge(spec, file.fieldname);
        }
      }
    }
  }

  private maxBytes(spec: UploadsSpec, field: string): number {
    const max = spec.fields[field]?.maxBytes ?? 0;
    return typeof max === 'function' ? max(this.config) : max;
  }

  private tooLarge(spec: UploadsSpec, field: string): AppError {
    const max = this.maxBytes(spec, field);
    return new AppError('payload_too_large', `${field} must be at most ${megabytes(max)}.`, field);
  }

  private parserFor(spec: UploadsSpec): RequestHandler {
    let parser = this.parsers.get(spec);
    if (!parser) {
      const names = Object.keys(spec.fields);
      parser = multer({
        storage: spec.storage === 'disk' ? this.diskStorage() : multer.memoryStorage(),
        limits: {
          ...FIELD_LIMITS,
          fileSize: Math.max(...names.map((n) => this.maxBytes(spec, n))),
          files: names.length * 2,
        },
        fileFilter: (_req, file, accept) => accept(null, names.includes(file.fieldname)),
      }).any();
      this.parsers.set(spec, parser);
    }
    return parser;
  }

  /** Temporary files named at random: the client's file name never reaches the file system. */
  private diskStorage(): multer.StorageEngine {
    const dir = this.uploadDir;
    return multer.diskStorage({
      destination: (_req, _file, done) => {
        try {
          mkdirSync(dir, { recursive: true });
          done(null, dir);
        } catch (error) {
          done(error as Error, dir);
        }
      },
      filename: (_req, _file, done) => done(null, `${randomBytes(16).toString('hex')}.upload`),
    });
  }
}

/** What busboy and multer say about a body they cannot read, in words for the client. */
const PARSER_ERRORS: ReadonlyArray<[RegExp, string]> = [
  [
    /boundary not found/i,
    'The multipart/form-data body has no boundary in its Content-Type header.',
  ],
  [
    /unexpected end of (form|file)/i,
    'The multipart/form-data body ends before its closing boundary.',
  ],
  [/malformed part header/i, 'The multipart/form-data body has a malformed part header.'],
  [
    /malformed content type/i,
    'The Content-Type header of the multipart/form-data body is malformed.',
  ],
  [
    /^request (aborted|closed)$|^aborted$/i,
    'The client closed the connection before the body was complete.',
  ],
];

/**
 * A parser failure is the client's (400 malformed_body, which is not logged as an error): a
 * malformed body, one cut short, or a client that went away. busboy and multer raise plain Errors
 * for those. MulterErrors (limits) keep their own status; errors with a system code (a full disk
 * while writing an upload) and other kinds of Error (a bug) stay server faults, except the
 * connection resets of a client that went away.
 */
export function multipartError(err: unknown): Error {
  if (!(err instanceof Error)) {
    return new AppError('malformed_body', 'The multipart/form-data body could not be read.');
  }
  const code = (err as { code?: unknown }).code;
  const clientGone = code === 'ECONNRESET' || code === 'ECONNABORTED';
  if (err.constructor !== Error || (code !== undefined && !clientGone)) {
    return err;
  }
  const title =
    PARSER_ERRORS.find(([pattern]) => pattern.test(err.message))?.[1] ??
    'The multipart/form-data body could not be read.';
  return new AppError('malformed_body', title);
}
