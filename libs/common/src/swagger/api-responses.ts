import { applyDecorators, Type } from '@nestjs/common';
import {
  ApiConsumes,
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { ERROR_STATUS } from '../errors/error-codes';

export class IdDto {
  @ApiProperty({ example: 1 })
  id!: number;
}

export class ErrorEntryDto {
  @ApiProperty({ example: 400 })
  status!: number;

  @ApiProperty({ example: 'name must be at most 64 characters.' })
  title!: string;

  @ApiPropertyOptional({ example: 'name', description: 'The field at fault, when there is one.' })
  field?: string;

  @ApiProperty({ enum: Object.keys(ERROR_STATUS), example: 'validation_failed' })
  code!: string;
}

export class ErrorBodyDto {
  @ApiProperty({ type: [ErrorEntryDto] })
  errors!: ErrorEntryDto[];
}

export class ListMetaDto {
  @ApiProperty() page!: number;
  @ApiProperty() results_per_page!: number;
  @ApiProperty() total!: number;
  @ApiProperty({ description: 'Equals total; kept for clients of the origin product.' })
  total_results!: number;
  @ApiProperty() total_pages!: number;
}

export class ListLinksDto {
  @ApiProperty() first!: string;
  @ApiProperty() last!: string;
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
  @ApiProperty({ type: String, nullable: true }) prev!: string | null;
  @ApiProperty() self!: string;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input; each problem is one entry of `errors`.',
  401: 'Missing, unknown, expired or revoked API key.',
  403: 'Refused in team context (X-Team-Id): the membership lacks the access flag this operation needs, or the operation is never done through a team.',
  404: 'Not found, or owned by someone else.',
  409: 'The resource kept changing under concurrent requests while this one was applied; send it again.',
  413: 'Upload or body too large.',
  429: 'Rate limit reached; see Retry-After.',
};

/** `{ data: <model> }` */
export function ApiDataResponse(model: Type<unknown>, status = 200): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      schema: {
        type: 'object',
        required: ['data'],
        properties: { data: { $ref: getSchemaPath(model) } },
      },
    }),
  );
}

/** `{ data: { id } }` of create (201), update and delete (200). */
export function ApiIdResponse(status = 200): MethodDecorator {
  return ApiDataResponse(IdDto, status);
}

/** The list envelope of `model`. */
export function ApiListResponse(model: Type<unknown>): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(model, ListMetaDto, ListLinksDto),
    ApiResponse({
      status: 200,
      schema: {
        type: 'object',
        required: ['data', 'meta', 'links'],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
          meta: { $ref: getSchemaPath(ListMetaDto) },
          links: { $ref: getSchemaPath(ListLinksDto) },
        },
      },
    }),
  );
}

/**
 * The 200 content of an export: CSV text, or JSON `{ data: [...] }`, by `format`. Errors stay JSON:
 * an operation-wide ApiProduces would document them as text/csv as well.
 */
export const EXPORT_CONTENT = {
  'text/csv': { schema: { type: 'string' } },
  'application/json': {
    schema: {
      type: 'object',
      required: ['data'],
      properties: { data: { type: 'array', items: { type: 'object' } } },
    },
  },
};

/** Documents error responses in the contract's shape. */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: ERROR_DESCRIPTIONS[status], type: ErrorBodyDto }),
    ),
  );
}

/** The body encodings every write operation accepts. */
export function ApiForm(): MethodDecorator {
  return ApiConsumes(
    'multipart/form-data',
    'application/x-www-form-urlencoded',
    'application/json',
  );
}
