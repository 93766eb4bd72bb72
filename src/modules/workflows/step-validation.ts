import safeRegex from 'safe-regex2';

/** What a `collect` step may require of the customer's answer (docs/api.md §5b). */
export const STEP_VALIDATION_KINDS = ['email', 'phone', 'number', 'order_id'] as const;
export type StepValidationKind = (typeof STEP_VALIDATION_KINDS)[number];
export type StepValidation = StepValidationKind | { pattern: string };

export const MAX_STEP_PATTERN = 200;

/**
 * Why `value` is not a step's `validate`, or null when it is one: a kind, or `{ pattern }` with
 * a regular expression that compiles and cannot backtrack for ever on a customer's answer
 * (safe-regex2: no nested quantifiers), since it runs on whatever customers send.
 */
export function stepValidationProblem(value: unknown): string | null {
  if (typeof value === 'string') {
    return (STEP_VALIDATION_KINDS as readonly string[]).includes(value)
      ? null
      : `must be one of ${STEP_VALIDATION_KINDS.join(', ')}, or { pattern }`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `must be one of ${STEP_VALIDATION_KINDS.join(', ')}, or { pattern }`;
  }
  const keys = Object.keys(value);
  const pattern = (value as { pattern?: unknown }).pattern;
  if (keys.length !== 1 || typeof pattern !== 'string') {
    return 'must be { pattern } with a regular expression and nothing else';
  }
  if (pattern.length === 0 || pattern.length > MAX_STEP_PATTERN) {
    return `pattern must be 1 to ${MAX_STEP_PATTERN} characters`;
  }
  try {
    new RegExp(pattern, 'iu');
  } catch {
    return 'pattern must be a valid regular expression';
  }
  return safeRegex(pattern)
    ? null
    : 'pattern must not nest repetitions (such as (a+)+), which can take forever to match';
}
