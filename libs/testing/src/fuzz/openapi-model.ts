/** The parts of an OpenAPI 3 document the fuzz reads. */
export interface SchemaObject {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  nullable?: boolean;
  example?: unknown;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  allOf?: SchemaObject[];
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: SchemaObject;
}

interface OperationObject {
  parameters?: (ParameterObject | { $ref: string })[];
  requestBody?: { content?: Record<string, { schema?: SchemaObject }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, SchemaObject> };
}

export type HttpMethod = 'get' | 'post' | 'delete' | 'put' | 'patch' | 'head';

/** One path x method of the document, its schemas resolved. */
export interface Operation {
  /** `POST /v1/links/{id}` */
  key: string;
  method: HttpMethod;
  path: string;
  pathParams: ParameterObject[];
  queryParams: ParameterObject[];
  headerParams: ParameterObject[];
  /** The request body, when the operation takes one. */
  body: { schemaName: string; schema: SchemaObject; contentTypes: string[] } | null;
}

const METHODS: readonly HttpMethod[] = ['get', 'post', 'delete', 'put', 'patch', 'head'];

export function resolveSchema(doc: OpenApiDocument, schema: SchemaObject): SchemaObject {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = doc.components?.schemas?.[name];
    if (!target) {
      throw new Error(`The document has no schema ${schema.$ref}`);
    }
    return resolveSchema(doc, target);
  }
  return schema;
}

/**
 * The document (OpenAPI 3.1, JSON Schema 2020-12) in the model's terms: a `type` array of one type
 * and `null` is that type with `nullable: true`, as the fuzz reads it.
 */
function singleTypes<T>(node: T): T {
  if (Array.isArray(node)) {
    return node.map((item: unknown) => singleTypes(item)) as T;
  }
  if (node === null || typeof node !== 'object') {
    return node;
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = singleTypes(value);
  }
  const type: unknown = out.type;
  if (Array.isArray(type) && type.every((t) => typeof t === 'string')) {
    const types = type.filter((t) => t !== 'null');
    if (types.length === 1) {
      out.type = types[0];
      if (types.length < type.length) out.nullable = true;
    }
  }
  return out as T;
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const doc = singleTypes(document);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) {
        continue;
      }
      const params = (op.parameters ?? []).filter((p): p is ParameterObject => 'name' in p);
      const content = op.requestBody?.content ?? {};
      const contentTypes = Object.keys(content);
      let body: Operation['body'] = null;
      if (contentTypes.length > 0) {
        const raw = content[contentTypes[0]].schema ?? {};
        body = {
          schemaName: raw.$ref ? raw.$ref.replace('#/components/schemas/', '') : 'inline',
          schema: resolveSchema(doc, raw),
          contentTypes,
        };
      }
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method,
        path,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        headerParams: params.filter((p) => p.in === 'header'),
        body,
      });
    }
  }
  return operations;
}
