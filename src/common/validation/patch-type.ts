import { Type } from '@nestjs/common';
import { DECORATORS, PartialType } from '@nestjs/swagger';

/**
 * The body of a PATCH: any subset of the create fields, where a field sent as null is refused
 * unless it is nullable. It documents no `default`: a field left out keeps its current value
 * rather than taking the one a create would give it.
 */
export function PatchType<T>(create: Type<T>): Type<Partial<T>> {
  const patch = PartialType(create, { skipNullProperties: false });
  const prototype = patch.prototype as object;
  const entries = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, prototype) as string[];
  for (const name of entries.map((entry) => entry.slice(1))) {
    const { default: _default, ...property } = Reflect.getMetadata(
      DECORATORS.API_MODEL_PROPERTIES,
      prototype,
      name,
    ) as Record<string, unknown>;
    Reflect.defineMetadata(DECORATORS.API_MODEL_PROPERTIES, property, prototype, name);
  }
  return patch;
}
