import { ActionParameters } from './action-executor';

type Property = Record<string, unknown>;

function typeProblem(type: unknown, value: unknown): string | null {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? null : 'must be a string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'integer':
      return Number.isInteger(value) ? null : 'must be an integer';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? null
        : 'must be an object';
    case 'array':
      return Array.isArray(value) ? null : 'must be an array';
    default:
      return null;
  }
}

function valueProblem(property: Property, value: unknown): string | null {
  const problem = typeProblem(property.type, value);
  if (problem) {
    return problem;
  }
  if (Array.isArray(property.enum) && !property.enum.includes(value)) {
    return `must be one of ${property.enum.map(String).join(', ')}`;
  }
  if (typeof value === 'number') {
    if (typeof property.minimum === 'number' && value < property.minimum) {
      return `must not be less than ${property.minimum}`;
    }
    if (typeof property.exclusiveMinimum === 'number' && value <= property.exclusiveMinimum) {
      return `must be greater than ${property.exclusiveMinimum}`;
    }
    if (typeof property.maximum === 'number' && value > property.maximum) {
      return `must not be greater than ${property.maximum}`;
    }
  }
  if (typeof value === 'string') {
    if (typeof property.minLength === 'number' && value.length < property.minLength) {
      return 'must not be empty';
    }
    if (typeof property.maxLength === 'number' && value.length > property.maxLength) {
      return `must be at most ${property.maxLength} characters`;
    }
    if (typeof property.pattern === 'string' && !new RegExp(property.pattern).test(value)) {
      return `must match ${property.pattern}`;
    }
  }
  return null;
}

/**
 * What is wrong with `args` for `schema`, one line per argument: the keywords the schemas built
 * here use (type, enum, bounds, lengths, pattern, required, additionalProperties). A model's tool
 * call is checked before anything is sent, so it hears what to fix rather than a server's 400.
 */
export function argumentProblems(
  schema: ActionParameters,
  args: Record<string, unknown>,
): string[] {
  const problems: string[] = [];
  for (const name of schema.required ?? []) {
    if (args[name] === undefined || args[name] === null) {
      problems.push(`${name}: is required`);
    }
  }
  for (const [name, value] of Object.entries(args)) {
    const property = schema.properties[name];
    if (!property) {
      if (schema.additionalProperties === false) {
        problems.push(`${name}: is not a parameter of this action`);
      }
      continue;
    }
    if (value === undefined || value === null) {
      continue;
    }
    const problem = valueProblem(property, value);
    if (problem) {
      problems.push(`${name}: ${problem}`);
    }
  }
  return problems;
}

/** The arguments without those left out (undefined or null), which mean "not given". */
export function givenArguments(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).filter(([, value]) => value !== undefined && value !== null),
  );
}
