import type { NextFunction, Request, Response } from 'express';
import { ObjectStore, objectKeySegments } from '@app/storage';

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  svg: 'image/svg+xml',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/**
 * Stored files (QR images, logos, splash images) at `/uploads/<key>`, read from the object store
 * (local disk or S3, small files from memory). Names carry a content hash, so they are cached
 * forever; nosniff and a CSP that allows nothing keep an SVG from acting as a page. Anything not
 * found falls through to the routes after it (their 404).
 */
export function serveUploads(store: ObjectStore) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    const path = req.path;
    let key: string;
    try {
      key = `uploads/${decodeURIComponent(path.slice(1))}`;
    } catch {
      next();
      return;
    }
    const segments = objectKeySegments(key);
    const extension = /\.([a-z]+)$/.exec(key)?.[1] ?? '';
    if (segments === null || segments.some((s) => s.startsWith('.')) || !CONTENT_TYPES[extension]) {
      next();
      return;
    }
    store.get(key).then(
      (object) => {
        if (object === null) {
          next();
          return;
        }
        const etag = `"${object.size.toString(16)}-${object.modified.getTime().toString(16)}"`;
        res.setHeader('Content-Type', CONTENT_TYPES[extension]);
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        res.setHeader('ETag', etag);
        res.setHeader('Last-Modified', object.modified.toUTCString());
        if (req.headers['if-none-match'] === etag) {
          res.status(304).end();
          return;
        }
        res.setHeader('Content-Length', String(object.size));
        if (req.method === 'HEAD') {
          res.end();
          return;
        }
        object
          .stream()
          .on('error', (error) => res.destroy(error))
          .pipe(res);
      },
      (error: unknown) => next(error),
    );
  };
}
