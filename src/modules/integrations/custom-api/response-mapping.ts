import { fieldPath } from '@/common/validation/validation-messages';

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

/** Why a `response_mapping` cannot be used, one line per entry. */
export function mappingProblems(mapping: Record<string, unknown> | null | undefined): string[] {
  return Object.entries(mapping ?? {})
    .filter(([, path]) => typeof path !== 'string' || parsePath(path) === null)
    .map(
      ([name]) =>
        `${fieldPath('response_mapping', name)}: must be a path into the answer, such as "$.data.order.status"`,
    );
}

/**
 * What of the answer goes back: the whole answer without a mapping, else an object of each
 * mapping name → the value at its path (null where the answer has nothing there).
 */
export function mapResponse(
  answer: unknown,
  mapping: Record<string, unknown> | null | undefined,
): unknown {
  const entries = Object.entries(mapping ?? {});
  if (entries.length === 0) {
    return answer;
  }
  return Object.fromEntries(
    entries.map(([name, path]) => {
      const steps = typeof path === 'string' ? parsePath(path) : null;
      return [name, steps ? valueAt(answer, steps) : null];
    }),
  );
}
