/** The parts of the served OpenAPI document that tests walk. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, RawOperation>>;
  components: { schemas: Record<string, Schema> };
}

interface RawOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
  security?: unknown[];
}

export interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  example?: unknown;
  minimum?: number;
  required?: string[];
  properties?: Record<string, Schema>;
  [keyword: string]: unknown;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** As documented, with `{name}` placeholders. */
  path: string;
  pathParams: string[];
  requiredQuery: string[];
  /** Authenticated by ticket rather than API key (no `security`). */
  isPublic: boolean;
  bodySchema?: Schema;
  responses: string[];
}

const METHODS = new Set(['get', 'post', 'patch', 'delete']);

/** Every operation of the document; fails on a method the tests do not know how to send. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => {
      if (!METHODS.has(method)) {
        throw new Error(`${method.toUpperCase()} ${path}: a method the tests cannot send`);
      }
      const parameters = operation.parameters ?? [];
      return {
        method: method.toUpperCase() as Operation['method'],
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        requiredQuery: parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name),
        isPublic: !operation.security?.length,
        bodySchema: operation.requestBody?.content['application/json']?.schema,
        responses: Object.keys(operation.responses),
      };
    }),
  );
}

function resolve(doc: OpenApiDocument, schema: Schema): Schema {
  if (!schema.$ref) {
    return schema;
  }
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = doc.components.schemas[name];
  if (!target) {
    throw new Error(`unresolvable schema reference ${schema.$ref}`);
  }
  return resolve(doc, target);
}

/**
 * The smallest body the schema describes: its required properties only, each the documented
 * example, the first allowed value, or the simplest value of its type. Throws on a schema it
 * cannot read, so that a new kind of body is noticed rather than sent wrong.
 */
export function minimalSample(doc: OpenApiDocument, schema: Schema): unknown {
  const resolved = resolve(doc, schema);
  if (resolved.example !== undefined) {
    return resolved.example;
  }
  if (resolved.enum) {
    return resolved.enum[0];
  }
  if (resolved.type === 'object') {
    return Object.fromEntries(
      (resolved.required ?? []).map((name) => {
        const property = resolved.properties?.[name];
        if (!property) {
          throw new Error(`required property ${name} has no schema`);
        }
        return [name, minimalSample(doc, property)];
      }),
    );
  }
  const simplest: Record<string, unknown> = {
    array: [],
    string: 'x',
    boolean: true,
    integer: resolved.minimum ?? 1,
    number: resolved.minimum ?? 1,
  };
  if (resolved.type === undefined || !(resolved.type in simplest)) {
    throw new Error(`cannot make a sample of ${JSON.stringify(resolved)}`);
  }
  return simplest[resolved.type];
}
