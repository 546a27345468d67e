import type { NextFunction, Request, Response } from 'express';
import { AppError } from './app-error';

const BY_TYPE: Record<string, () => AppError> = {
  'entity.parse.failed': () =>
    new AppError('malformed_body', 'The request body is not valid JSON.'),
  'entity.too.large': () =>
    new AppError('payload_too_large', 'The request body is larger than allowed.'),
  'parameters.too.many': () =>
    new AppError('payload_too_large', 'The request body has too many fields.'),
  'encoding.unsupported': () =>
    new AppError('unsupported_media_type', 'The request body uses an unsupported encoding.'),
  'charset.unsupported': () =>
    new AppError('unsupported_media_type', 'The request body uses an unsupported charset.'),
};

/**
 * Express error middleware mounted right after the body parsers: turns their errors into
 * AppErrors, so the exception filter answers them like every other client error.
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
