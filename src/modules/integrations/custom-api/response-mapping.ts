import { fieldPath } from '@/common/validation/validation-messages';
import {
  customerTextProblem,
  fillCustomerText,
  ownKeys,
  PLACEHOLDER_NAME,
} from '../actions/customer-text';

type Step = string | number;

const STEP = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[(?:"([^"]*)"|'([^']*)')\]/y;
const FIRST_KEY = /^[A-Za-z_$][\w$-]*/;

/**
 * A path into a JSON answer, as `response_mapping` values are written: `$` for the whole answer,
 * then `.key`, `[0]` or `["key with spaces"]` steps; the leading `$.` may be left out
 * (`data.order.status`). null when `path` is not one.
 */
export function parsePath(path: string): Step[] | null {
  let rest = path.trim();
  const steps: Step[] = [];
  if (rest.startsWith('$')) {
    rest = rest.slice(1);
  } else {
    const first = FIRST_KEY.exec(rest);
    if (!first) {
      return null;
    }
    steps.push(first[0]);
    rest = rest.slice(first[0].length);
  }
  STEP.lastIndex = 0;
  while (STEP.lastIndex < rest.length) {
    const at = STEP.lastIndex;
    const match = STEP.exec(rest);
    if (!match || match.index !== at) {
      return null;
    }
    if (match[1] !== undefined) {
      steps.push(match[1]);
    } else if (match[2] !== undefined) {
      steps.push(Number(match[2]));
    } else {
      steps.push(match[3] ?? match[4]);
    }
  }
  return steps;
}

function valueAt(answer: unknown, steps: Step[]): unknown {
  let value = answer;
  for (const step of steps) {
    if (value === null || typeof value !== 'object') {
      return null;
    }
    if (typeof step === 'number') {
      value = Array.isArray(value) ? value[step] : undefined;
    } else {
      value = Array.isArray(value) ? undefined : (value as Record<string, unknown>)[step];
    }
    if (value === undefined) {
      return null;
    }
  }
  return value;
}

/** A tool's `response_mapping`, as stored (docs/api.md §4). */
export interface ResponseMapping {
  path?: string | null;
  fields?: Record<string, unknown> | null;
  success_message?: string | null;
  error_message?: string | null;
}

const MAPPING_KEYS = ['path', 'fields', 'success_message', 'error_message'];
const MAX_FIELDS = 100;
const MAX_PATH_CHARS = 1_000;
const PATH_EXAMPLE = 'such as "$.data.order.status"';

function pathProblem(at: string, path: unknown): string | null {
  return typeof path === 'string' && path.length <= MAX_PATH_CHARS && parsePath(path) !== null
    ? null
    : `${at}: must be a path into the answer, ${PATH_EXAMPLE}`;
}

/** Why a `response_mapping` cannot be used, one line per problem. */
export function mappingProblems(mapping: Record<string, unknown> | null | undefined): string[] {
  if (!mapping) {
    return [];
  }
  const problems = Object.keys(mapping)
    .filter((key) => !MAPPING_KEYS.includes(key))
    .map((key) => `${fieldPath('response_mapping', key)}: is not allowed`);
  if (mapping.path !== undefined && mapping.path !== null) {
    problems.push(pathProblem('response_mapping.path', mapping.path) ?? '');
  }
  const fields = mapping.fields;
  if (fields !== undefined && fields !== null) {
    if (typeof fields !== 'object' || Array.isArray(fields)) {
      problems.push('response_mapping.fields: must be an object of name → path');
    } else if (Object.keys(fields).length > MAX_FIELDS) {
      problems.push(`response_mapping.fields: must have at most ${MAX_FIELDS} names`);
    } else {
      for (const [name, path] of Object.entries(fields)) {
        const at = fieldPath('response_mapping.fields', name);
        problems.push(
          PLACEHOLDER_NAME.test(name)
            ? (pathProblem(at, path) ?? '')
            : `${at}: a name is letters, digits, _ and -, starting with a letter or _`,
        );
      }
    }
  }
  for (const key of ['success_message', 'error_message']) {
    problems.push(customerTextProblem(`response_mapping.${key}`, mapping[key]) ?? '');
  }
  return problems.filter((problem) => problem !== '');
}

function pathValue(answer: unknown, path: unknown): unknown {
  const steps = typeof path === 'string' ? parsePath(path) : null;
  return steps ? valueAt(answer, steps) : null;
}

/** What of the answer is the result: the value at `path`, else the whole answer. */
export function pickResult(answer: unknown, mapping: ResponseMapping | null | undefined): unknown {
  return mapping?.path ? pathValue(answer, mapping.path) : answer;
}

/** Each of `fields` → the value at its path in the whole answer (null where it has none). */
export function fieldValues(
  answer: unknown,
  mapping: ResponseMapping | null | undefined,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(mapping?.fields ?? {}).map(([name, path]) => [name, pathValue(answer, path)]),
  );
}

/**
 * The customer's text after a call: the mapping's `success_message` (or `error_message` for a
 * failed call) filled from its fields, the picked result's own keys and the arguments, in that
 * order; null when it has none or a placeholder stays unfilled.
 */
export function mappedCustomerText(
  mapping: ResponseMapping | null | undefined,
  answer: unknown,
  args: Record<string, unknown>,
  ok: boolean,
): string | null {
  const template = ok ? mapping?.success_message : mapping?.error_message;
  return fillCustomerText(template, [
    fieldValues(answer, mapping),
    ownKeys(pickResult(answer, mapping)),
    args,
  ]);
}
