import { Transform } from 'class-transformer';
import { canonicalId } from '../ids';

/** An id (or array of ids) in a body, read as ids in paths are, whatever its case. */
export const BodyId = () =>
  Transform(({ value }: { value: unknown }) =>
    Array.isArray(value) ? value.map(canonicalId) : canonicalId(value),
  );
