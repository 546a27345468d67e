import type { Request } from 'express';
import { AppError, type Problem } from '../errors/app-error';

const MAX_DEPTH = 8;

/**
 * The fields of parsed input (query or body, nested as `name[key]`) whose text has a NUL
 * character: PostgreSQL cannot store it in a text column, and no field of the API means one.
 */
export function nulFields(value: unknown, path = '', depth = 0): string[] {
  if (typeof value === 'string') {
    return value.includes('\0') ? [path] : [];
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(value)) {
    return [];
  }
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) =>
    nulFields(inner, path === '' ? key : `${path}[${key}]`, depth + 1),
  );
}

/**
 * Refuses a request whose query or body has a NUL character in any value, with a 400 naming each
 * field, before a handler or a database sees it (RequestGuard, after a multipart body is parsed).
 */
export function rejectNul(req: Request): void {
  const fields = [...nulFields(req.query), ...nulFields(req.body as unknown)];
  if (fields.length > 0) {
    const problems: Problem[] = [...new Set(fields)].map((field) => ({
      field,
      title: `${field} must not contain a NUL character.`,
    }));
    throw new AppError('validation_failed', problems);
  }
}
