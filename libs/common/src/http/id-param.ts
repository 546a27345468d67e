import { Param, PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ErrorCode, NotFoundError } from '../errors';

const MAX_ID = 2147483647;

/** An id as written in a path or query (1 to 2147483647, no sign or leading zero); else null. */
export function parseId(value: string): number | null {
  return /^[1-9]\d{0,9}$/.test(value) && Number(value) <= MAX_ID ? Number(value) : null;
}

/** Parses a path id. Anything that cannot be an id answers like a missing resource: 404. */
class IdPipe implements PipeTransform<string, number> {
  constructor(
    private readonly code: ErrorCode,
    private readonly what: string,
  ) {}

  transform(value: string): number {
    const id = parseId(value);
    if (id === null) {
      throw new NotFoundError(this.code, this.what);
    }
    return id;
  }
}

/** `@IdParam('project_not_found', 'project') id: number` for a route declared with `:id`. */
export function IdParam(code: ErrorCode, what: string, name = 'id'): ParameterDecorator {
  return Param(name, new IdPipe(code, what));
}

/** Documents the `:id` path parameter of a route. */
export function ApiIdParam(description: string): MethodDecorator {
  return ApiParam({ name: 'id', type: 'integer', description });
}
