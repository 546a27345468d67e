import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
} from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import type { Request } from 'express';
import { ListSpec, RESULTS_PER_PAGE } from './list-spec';
import { parseListQuery } from './parse-list-query';

const LIST_SPEC = 'linkdock:list-spec';

/** Declares a list endpoint: its allowed parameters, enforced by @ListParams() and documented. */
export function Listing(spec: ListSpec): MethodDecorator {
  const filters = Object.entries(spec.filters ?? {}).map(([name, filter]) =>
    ApiQuery({
      name,
      required: false,
      description: 'Exact-match filter.',
      ...(filter.kind === 'enum'
        ? { enum: [...filter.values] }
        : filter.kind === 'boolean'
          ? { enum: ['0', '1'] }
          : { type: filter.kind === 'integer' ? 'integer' : 'string' }),
    }),
  );
  const searchBy = spec.searchBy ?? [];
  const datetimeFields = spec.datetimeFields ?? [];
  return applyDecorators(
    SetMetadata(LIST_SPEC, spec),
    ApiQuery({ name: 'page', required: false, type: 'integer', description: 'Default 1.' }),
    ApiQuery({
      name: 'results_per_page',
      required: false,
      enum: RESULTS_PER_PAGE.map(String),
      description: 'Default 25.',
    }),
    ...(searchBy.length > 0
      ? [
          ApiQuery({ name: 'search', required: false, type: 'string' }),
          ApiQuery({ name: 'search_by', required: false, enum: [...searchBy] }),
        ]
      : []),
    ApiQuery({ name: 'order_by', required: false, enum: Object.keys(spec.orderBy) }),
    ApiQuery({ name: 'order_type', required: false, enum: ['ASC', 'DESC'] }),
    ...(datetimeFields.length > 0
      ? [
          ApiQuery({ name: 'datetime_field', required: false, enum: [...datetimeFields] }),
          ApiQuery({ name: 'datetime_start', required: false, description: 'Y-m-d H:i:s, UTC.' }),
          ApiQuery({ name: 'datetime_end', required: false, description: 'Y-m-d H:i:s, UTC.' }),
        ]
      : []),
    ...filters,
  );
}

/** The parsed list query of a handler declared with @Listing(spec). */
export const ListParams = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const spec = Reflect.getMetadata(LIST_SPEC, ctx.getHandler()) as ListSpec | undefined;
  if (spec === undefined) {
    throw new Error(`@ListParams() needs @Listing(spec) on ${ctx.getHandler().name}`);
  }
  return parseListQuery(ctx.switchToHttp().getRequest<Request>().query, spec);
});
