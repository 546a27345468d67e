import { rm } from 'node:fs/promises';
import type { Request } from 'express';

/**
 * The removal of a request's temporary upload files (multer's `path`, for `disk` uploads), or null
 * when it has none (nearly every request). The request's two exits wait for it before they write:
 * EnvelopeExpressAdapter with the handler's result, AllExceptionsFilter with any error (a DTO the
 * validation pipe refused included). So the files live exactly until the handler is done, and a
 * client that has its answer finds them gone.
 */
export function uploadsRemoval(req: Request | undefined): Promise<void> | null {
  const files = req?.files;
  if (!Array.isArray(files)) {
    return null;
  }
  const paths = files.flatMap((f) => (f.path ? [f.path] : []));
  if (paths.length === 0) {
    return null;
  }
  return Promise.all(paths.map((path) => rm(path, { force: true }))).then(() => undefined);
}
