import { ValidateBy, ValidationOptions } from 'class-validator';

/**
 * The field may only be sent when `predicate` holds for the whole object, e.g. `content` only for
 * text knowledge bases. Sent anyway, it is refused rather than silently dropped.
 */
export const OnlyWhen = <T extends object>(
  predicate: (object: T) => boolean,
  condition: string,
  options?: ValidationOptions,
) =>
  ValidateBy(
    {
      name: 'onlyWhen',
      validator: {
        validate: (value: unknown, args) => value === undefined || predicate(args?.object as T),
        defaultMessage: () => `is only allowed when ${condition}`,
      },
    },
    options,
  );
