import fc from 'fast-check';
import { OpenApiDocument, resolve, Schema } from '../support/openapi';

/** Values for a property chosen by its name rather than its schema (ids, URLs, e-mails). */
export type Hints = (name: string) => fc.Arbitrary<unknown> | undefined;

const MAX_GENERATED_LENGTH = 40;
const MAX_GENERATED_ITEMS = 3;
const MAX_DEPTH = 6;

const text = (minLength: number, maxLength: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme-ascii' }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) },
  );

function stringArbitrary(schema: Schema): fc.Arbitrary<unknown> {
  switch (schema.format) {
    case 'email':
      return fc.emailAddress();
    case 'date-time':
      // RFC 3339 has four-digit years only: toISOString() of a date beyond them is not one.
      return fc
        .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z') })
        .map((date) => date.toISOString());
    default: {
      const minLength = schema.minLength ?? 0;
      return text(
        minLength,
        Math.max(minLength, Math.min(schema.maxLength ?? 40, MAX_GENERATED_LENGTH)),
      );
    }
  }
}

function numberArbitrary(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1_000_000;
  const max = schema.maximum ?? 1_000_000;
  return schema.type === 'integer'
    ? fc.integer({ min, max })
    : fc.oneof(fc.integer({ min, max }), fc.double({ min, max, noNaN: true }));
}

function objectArbitrary(document: OpenApiDocument, schema: Schema, hints: Hints, depth: number) {
  const properties: Record<string, Schema> = schema.properties ?? {};
  if (Object.keys(properties).length === 0) {
    return schema.additionalProperties && typeof schema.additionalProperties === 'object'
      ? fc.dictionary(
          fc.string({ maxLength: 10 }),
          build(document, schema.additionalProperties, hints, depth + 1),
          {
            maxKeys: MAX_GENERATED_ITEMS,
          },
        )
      : fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), {
          maxKeys: MAX_GENERATED_ITEMS,
        });
  }
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      hints(name) ?? build(document, property, hints, depth + 1),
    ]),
  );
  return fc.record(model, { requiredKeys: schema.required ?? [] });
}

function build(
  document: OpenApiDocument,
  raw: Schema,
  hints: Hints,
  depth: number,
): fc.Arbitrary<unknown> {
  const schema = resolve(document, raw);
  const arbitrary = buildResolved(document, schema, hints, depth);
  return schema.nullable ? fc.option(arbitrary, { nil: null, freq: 8 }) : arbitrary;
}

function buildResolved(document: OpenApiDocument, schema: Schema, hints: Hints, depth: number) {
  if (schema.enum) {
    return fc.constantFrom(...(schema.enum as unknown[]));
  }
  const alternatives: Schema[] | undefined = schema.oneOf ?? schema.anyOf;
  if (alternatives) {
    return fc.oneof(
      ...alternatives.map((alternative) => build(document, alternative, hints, depth)),
    );
  }
  if (depth > MAX_DEPTH) {
    return fc.constant(null);
  }
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
    case 'number':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(build(document, schema.items ?? {}, hints, depth + 1), {
        maxLength: Math.min(schema.maxItems ?? MAX_GENERATED_ITEMS, MAX_GENERATED_ITEMS),
      });
    case 'object':
      return objectArbitrary(document, schema, hints, depth);
    default:
      return schema.properties
        ? objectArbitrary(document, schema, hints, depth)
        : fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values that mostly satisfy `schema`: fast-check arbitraries built from the served document. */
export function arbitraryFor(
  document: OpenApiDocument,
  schema: Schema,
  hints: Hints,
): fc.Arbitrary<unknown> {
  return build(document, schema, hints, 0);
}
