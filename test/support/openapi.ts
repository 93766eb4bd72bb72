export type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface DocumentedResponse {
  contentType: string;
  schema: Schema;
}

export interface Operation {
  /** `GET /api/v1/console/agents/{agentId}`: how reports name it. */
  name: string;
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
  responses: Map<number, DocumentedResponse | null>;
  /** True when the operation needs an API key. */
  secured: boolean;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, Schema> };
}

/** Every operation of the served document, in document order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const responses = new Map<number, DocumentedResponse | null>();
      for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
        const [contentType, media] = Object.entries<any>(response.content ?? {})[0] ?? [];
        responses.set(Number(status), contentType ? { contentType, schema: media.schema } : null);
      }
      operations.push({
        name: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters ?? []).map((parameter: any) => ({
          name: parameter.name,
          in: parameter.in,
          required: parameter.required === true,
          schema: parameter.schema ?? {},
        })),
        body: operation.requestBody?.content?.['application/json']?.schema,
        responses,
        secured: (operation.security ?? []).length > 0,
      });
    }
  }
  return operations;
}

/** Follows `$ref` (and single-element `allOf`, as Nest writes nullable refs) to the schema. */
export function resolve(document: OpenApiDocument, schema: Schema): Schema {
  let current = schema;
  while (current.$ref || (current.allOf?.length === 1 && !current.properties)) {
    if (current.$ref) {
      current = document.components.schemas[String(current.$ref).split('/').pop()!];
    } else {
      const { allOf, ...rest } = current;
      current = { ...rest, ...resolve(document, allOf[0]) };
    }
  }
  return current;
}

/**
 * The document's schemas as JSON Schema for Ajv: references point into the document (added to Ajv
 * as `openapi.json`), and `nullable: true` admits null whatever else the schema says, as the
 * document's generator and its clients mean it (`{nullable, allOf: [$ref]}`, `{nullable, enum}`).
 */
export function forAjv(schema: unknown): any {
  if (Array.isArray(schema)) {
    return schema.map(forAjv);
  }
  if (schema === null || typeof schema !== 'object') {
    return schema;
  }
  const converted = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref'
        ? String(value).replace('#/components/', 'openapi.json#/components/')
        : forAjv(value),
    ]),
  );
  if (converted.nullable === true) {
    const { nullable: _nullable, ...rest } = converted;
    return { anyOf: [{ type: 'null' }, rest] };
  }
  return converted;
}
