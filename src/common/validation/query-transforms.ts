import { Transform } from 'class-transformer';

/** Query-string integers: digits only, so that "1.5", "1e3" or "abc" fail validation. */
export const QueryInt = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value,
  );

/** Query-string booleans: exactly `true` or `false`. */
export const QueryBool = () =>
  Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  );
