import { rm } from 'node:fs/promises';
import type { Request } from 'express';

/** Removes the temporary files of a request's `disk` upload (multer's `path`). */
export async function removeDiskFiles(req: Request): Promise<void> {
  const files = (req.files ?? []) as Express.Multer.File[];
  await Promise.all(files.filter((f) => f.path).map((f) => rm(f.path, { force: true })));
}

/**
 * The removal of a request's temporary upload files, or null when it has none (nearly every
 * request). The request's two exits wait for it before they write: EnvelopeExpressAdapter with the
 * handler's result, AllExceptionsFilter with any error (a DTO the validation pipe refused
 * included). So the files live exactly until the handler is done, and a client that has its
 * answer finds them gone.
 */
export function uploadsRemoval(req: Request | undefined): Promise<void> | null {
  const files = req?.files;
  if (!Array.isArray(files) || !files.some((f) => f.path)) {
    return null;
  }
  return removeDiskFiles(req as Request);
}
