import type { NextFunction, Request, Response } from 'express';
import { AppError } from './app-error';

const BY_TYPE: Record<string, () => AppError> = {
  'entity.parse.failed': () =>
    new AppError('malformed_body', 'The request body is not valid JSON.'),
  'parameters.too.many': () =>
    new AppError('payload_too_large', 'The request body has too many fields.'),
  'encoding.unsupported': () =>
    new AppError('unsupported_media_type', 'The request body uses an unsupported encoding.'),
  'charset.unsupported': () =>
    new AppError('unsupported_media_type', 'The request body uses an unsupported charset.'),
};

/**
 * Express error middleware mounted right after the body parsers. Nest turns body-parser's JSON
 * SyntaxError into a bare BadRequestException, losing its type, so the kinds that need their own
 * title become AppErrors here; the rest (e.g. a 413 for a body over the limit) carry a status the
 * exception filter answers by itself.
 */
export function bodyParserErrors(
  err: unknown,
  _req: Request,
  _res: Response,
  next: NextFunction,
): void {
  const type =
    typeof err === 'object' && err !== null ? (err as { type?: unknown }).type : undefined;
  const translate = typeof type === 'string' ? BY_TYPE[type] : undefined;
  next(translate ? translate() : err);
}
