/** The entries of `values` that are not undefined: of a PATCH, the fields it sent and so changes. */
export function definedFields<T extends object>(values: { [K in keyof T]?: T[K] }): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
