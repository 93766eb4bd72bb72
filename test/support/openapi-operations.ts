import { OpenApiDocument, operationsOf as readOperations, resolve, Schema } from './openapi';

export type { OpenApiDocument, Schema };

/** An operation as the tenant sweep sends it. */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As documented, with `{name}` placeholders. */
  path: string;
  pathParams: string[];
  requiredQuery: string[];
  /** Authenticated by ticket rather than API key (no `security`). */
  isPublic: boolean;
  bodySchema?: Schema;
  responses: string[];
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Every operation of the document; fails on a method the tests do not know how to send. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  return readOperations(doc).map((operation) => {
    if (!METHODS.has(operation.method)) {
      throw new Error(`${operation.name}: a method the tests cannot send`);
    }
    const named = (where: string, requiredOnly: boolean) =>
      operation.parameters
        .filter((p) => p.in === where && (!requiredOnly || p.required))
        .map((p) => p.name);
    return {
      method: operation.method as Operation['method'],
      path: operation.path,
      pathParams: named('path', false),
      requiredQuery: named('query', true),
      isPublic: !operation.secured,
      bodySchema: operation.body,
      responses: [...operation.responses.keys()].map(String),
    };
  });
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
      (resolved.required ?? []).map((name: string) => {
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
