import { createParamDecorator, ExecutionContext, PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import type { Request } from 'express';
import { ErrorCode, NotFoundError } from '../errors';

/**
 * CONTRACT.md: a path id is `^[1-9][0-9]*$` below 2^53. Our ids are stored as 32-bit integers,
 * so one above 2^31 - 1 names no row: it is refused here, like any other missing id, without
 * asking the database (PostgreSQL would refuse the comparison with an `integer` column).
 */
const MAX_ID = 2147483647;

/** An id as written in a path or query (1 to 2147483647, no sign or leading zero); else null. */
export function parseId(value: unknown): number | null {
  return typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= MAX_ID
    ? Number(value)
    : null;
}

/** Parses a path id. Anything that cannot be an id answers like a missing resource: 404. */
class IdPipe implements PipeTransform<unknown, number> {
  constructor(
    private readonly code: ErrorCode,
    private readonly what: string,
  ) {}

  transform(value: unknown): number {
    const id = parseId(value);
    if (id === null) {
      throw new NotFoundError(this.code, this.what);
    }
    return id;
  }
}

/**
 * The path parameter exactly as the client wrote it (after percent-decoding). Not `@Param()`:
 * the global ValidationPipe (transform: true) turns a `@Param() id: number` into `Number(value)`
 * before any pipe of ours, and `Number` reads `+9`, `9e0`, `09`, ` 9`, `9 ` and `9.0` as 9.
 */
const RawPathParam = createParamDecorator(
  (name: string, ctx: ExecutionContext): unknown =>
    ctx.switchToHttp().getRequest<Request>().params[name],
);

/** `@IdParam('project_not_found', 'project') id: number` for a route declared with `:id`. */
export function IdParam(code: ErrorCode, what: string, name = 'id'): ParameterDecorator {
  return RawPathParam(name, new IdPipe(code, what));
}

/** Documents the `:id` path parameter of a route. */
export function ApiIdParam(description: string): MethodDecorator {
  return ApiParam({ name: 'id', type: 'integer', description });
}
