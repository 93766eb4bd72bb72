import { ValidationError } from '@nestjs/common';

const PROBLEM_BY_CONSTRAINT: Record<string, string> = {
  whitelistValidation: 'is not allowed',
  isNotEmpty: 'must not be empty',
  isDefined: 'is required',
  nestedValidation: 'must be an object',
};

function problemOf(constraint: string, message: string, property: string): string {
  const known = PROBLEM_BY_CONSTRAINT[constraint];
  if (known) {
    return known;
  }
  if (message.startsWith(`${property} `)) {
    return message.slice(property.length + 1);
  }
  if (message.startsWith(`each value in ${property} `)) {
    return `each value ${message.slice(`each value in ${property} `.length)}`;
  }
  return message;
}

/**
 * A key appended to a field path. Clients split a problem on its first ':', so a key holding one
 * (an unknown field of any name can be sent) has it percent-encoded, and '%' with it.
 */
export function fieldPath(parentPath: string, key: string): string {
  const segment = key.replace(/%/g, '%25').replace(/:/g, '%3A');
  return parentPath ? `${parentPath}.${segment}` : segment;
}

/** class-validator's error tree as the contract's `"<field path>: <problem>"` lines. */
export function validationMessages(errors: ValidationError[], parentPath = ''): string[] {
  const lines: string[] = [];
  for (const error of errors) {
    const path = fieldPath(parentPath, error.property);
    for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
      lines.push(`${path}: ${problemOf(constraint, message, error.property)}`);
    }
    if (error.children?.length) {
      lines.push(...validationMessages(error.children, path));
    }
  }
  return lines;
}
