import type { NextFunction, Request, Response } from 'express';

/**
 * Headers of every API response: answers are private to a key, so no shared cache may keep them,
 * and JSON must never be sniffed into something a browser would run.
 */
export function apiResponseHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
}
