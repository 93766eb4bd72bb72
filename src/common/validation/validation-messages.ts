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

/** class-validator's error tree as the contract's `"<field path>: <problem>"` lines. */
export function validationMessages(errors: ValidationError[], parentPath = ''): string[] {
  const lines: string[] = [];
  for (const error of errors) {
    const path = parentPath ? `${parentPath}.${error.property}` : error.property;
    for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
      lines.push(`${path}: ${problemOf(constraint, message, error.property)}`);
    }
    if (error.children?.length) {
      lines.push(...validationMessages(error.children, path));
    }
  }
  return lines;
}
