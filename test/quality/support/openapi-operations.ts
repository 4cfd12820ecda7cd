/** The parts of an OpenAPI 3.1 document the quality tests read. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  example?: unknown;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface RawOperation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
  security?: unknown[];
}

export interface OpenApiDocumentJson {
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Full path as served, e.g. `/api/v1/executions/{execution_id}`. */
  path: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body?: JsonSchema;
  /** Every status the document lists for the operation. */
  statuses: number[];
  /** True when the operation needs no key. */
  isPublic: boolean;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** Every operation of the document, in document order. */
export function openApiOperations(document: OpenApiDocumentJson): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const parameters = raw.parameters ?? [];
      operations.push({
        method: method as Operation['method'],
        path,
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        body: raw.requestBody?.content['application/json']?.schema,
        statuses: Object.keys(raw.responses).map(Number),
        isPublic: Array.isArray(raw.security) && raw.security.length === 0,
      });
    }
  }
  return operations;
}

/** Follows `$ref`s into components.schemas (the only kind zod-openapi writes). */
export function schemaResolver(document: OpenApiDocumentJson): (schema: JsonSchema) => JsonSchema {
  return function resolve(schema: JsonSchema): JsonSchema {
    if (!schema.$ref) return schema;
    const { $ref, ...siblings } = schema;
    const target = document.components?.schemas?.[$ref.replace('#/components/schemas/', '')];
    if (!target) throw new Error(`unresolvable $ref ${$ref}`);
    // In 3.1 keywords may sit beside a $ref (a default, a description); they refine the target.
    return { ...resolve(target), ...siblings };
  };
}
