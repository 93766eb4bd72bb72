import { ValidationError } from '@nestjs/common';
import { validationMessages } from './validation-messages';

function error(
  property: string,
  constraints?: Record<string, string>,
  children: ValidationError[] = [],
): ValidationError {
  return { property, constraints, children };
}

describe('validationMessages', () => {
  it('prefixes each problem with the full field path, array indexes included', () => {
    const tree = [
      error('rules', undefined, [
        error('0', undefined, [error('enabled', { isBoolean: 'enabled must be a boolean value' })]),
      ]),
    ];
    expect(validationMessages(tree)).toEqual(['rules.0.enabled: must be a boolean value']);
  });

  it("percent-encodes a ':' (and '%') in a key, so a problem's first ':' still ends its path", () => {
    const tree = [
      error('a:b', { whitelistValidation: 'property a:b should not exist' }),
      error('rules', undefined, [
        error('0', undefined, [
          error('50%:x', { whitelistValidation: 'property 50%:x should not exist' }),
        ]),
      ]),
    ];
    expect(validationMessages(tree)).toEqual([
      'a%3Ab: is not allowed',
      'rules.0.50%25%3Ax: is not allowed',
    ]);
  });

  it('words the common constraints for people', () => {
    expect(
      validationMessages([
        error('name', { isNotEmpty: 'name should not be empty' }),
        error('extra', { whitelistValidation: 'property extra should not exist' }),
        error('tags', { isString: 'each value in tags must be a string' }),
      ]),
    ).toEqual([
      'name: must not be empty',
      'extra: is not allowed',
      'tags: each value must be a string',
    ]);
  });
});
