import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors/app-error';

/**
 * Bounds of a parsed JSON body. No resource nests deeper than a few levels or has more than a
 * hundred fields; the key bound matters because class-transformer de-duplicates an object's keys
 * with indexOf, which is quadratic in their number (80k keys cost seconds of CPU). With at most
 * MAX_KEYS keys an object and MAX_VALUES values in all, the work per accepted body is linear.
 */
export interface JsonBodyLimits {
  maxDepth: number;
  maxKeys: number;
  maxValues: number;
}
export const JSON_BODY_LIMITS: Readonly<JsonBodyLimits> = {
  maxDepth: 16,
  maxKeys: 256,
  maxValues: 50_000,
};

type Container = Record<string, unknown> | unknown[];

/**
 * Checks a parsed JSON body in one pass, before any transformation sees it, and makes JSON mean
 * what a form means:
 * - nesting deeper than `maxDepth`, an object with more than `maxKeys` keys, or more than
 *   `maxValues` values in all: 413 `payload_too_large`;
 * - a string or key that is not well-formed Unicode (a lone UTF-16 surrogate such as "\ud800"):
 *   400 naming the field, since no database, header or validator can take one;
 * - `null` becomes the empty value, exactly like an empty form field: it clears a field that can be
 *   cleared and fails the checks of one that cannot. It is never stored as null.
 */
export function normalizeJsonBody(
  body: unknown,
  limits: JsonBodyLimits = JSON_BODY_LIMITS,
): unknown {
  if (body === null) {
    return '';
  }
  if (typeof body === 'string') {
    checkText(body, '');
    return body;
  }
  if (typeof body !== 'object') {
    return body;
  }
  let values = 0;
  // `item`: the node is one object of a body that is an array of objects.
  const stack: Array<{ node: Container; path: string; depth: number; item: boolean }> = [
    { node: body as Container, path: '', depth: 1, item: false },
  ];
  while (stack.length > 0) {
    const { node, path, depth, item } = stack.pop()!;
    if (depth > limits.maxDepth) {
      throw new AppError(
        'payload_too_large',
        `The request body nests deeper than ${limits.maxDepth} levels.`,
      );
    }
    const keys = Object.keys(node);
    if (!Array.isArray(node) && keys.length > limits.maxKeys) {
      throw new AppError(
        'payload_too_large',
        `${path || 'The request body'} has more than ${limits.maxKeys} fields.`,
      );
    }
    values += keys.length;
    if (values > limits.maxValues) {
      throw new AppError(
        'payload_too_large',
        `The request body has more than ${limits.maxValues} values.`,
      );
    }
    for (const key of keys) {
      const topLevelItem = Array.isArray(node) && depth === 1;
      const field = topLevelItem
        ? `[${key}]`
        : item
          ? `${path}.${key}`
          : path === ''
            ? key
            : `${path}[${key}]`;
      if (!Array.isArray(node) && !key.isWellFormed()) {
        throw new AppError(
          'malformed_body',
          'A field name in the request body is not well-formed Unicode text.',
        );
      }
      const value = (node as Record<string, unknown>)[key];
      if (value === null) {
        (node as Record<string, unknown>)[key] = '';
      } else if (typeof value === 'string') {
        checkText(value, field);
      } else if (typeof value === 'object') {
        stack.push({ node: value as Container, path: field, depth: depth + 1, item: topLevelItem });
      }
    }
  }
  return body;
}

function checkText(text: string, field: string): void {
  if (!text.isWellFormed()) {
    throw new AppError(
      'validation_failed',
      `${field || 'The request body'} is not well-formed Unicode text (it has a lone surrogate).`,
      field || undefined,
    );
  }
}

/** Requests whose body a route-specific parser has checked already (with its own bounds). */
const checked = new WeakSet<Request>();

/**
 * Express middleware mounted right after a JSON body parser. A route that takes larger bodies
 * (POST /v1/links/bulk) mounts its own parser with `jsonBodyLimitsWith(its bounds)` before the
 * global one; the global check then leaves that body alone.
 */
export function jsonBodyLimitsWith(
  limits: JsonBodyLimits,
): (req: Request, res: Response, next: NextFunction) => void {
  return (req, _res, next) => {
    // A raw body (Buffer: the processors' webhooks) is read by its route, after its signature.
    if (
      req.body === undefined ||
      Buffer.isBuffer(req.body) ||
      !req.is('json') ||
      checked.has(req)
    ) {
      next();
      return;
    }
    try {
      req.body = normalizeJsonBody(req.body, limits);
      checked.add(req);
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** The global check, with JSON_BODY_LIMITS. */
export const jsonBodyLimits = jsonBodyLimitsWith(JSON_BODY_LIMITS);
