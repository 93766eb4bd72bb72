/** The longest customer text a tool or connector may carry, placeholders included. */
export const MAX_CUSTOMER_TEXT = 1_000;
/** A value longer than this is not something to say to a customer in a sentence. */
const MAX_VALUE_CHARS = 1_000;

export const PLACEHOLDER_NAME = /^[A-Za-z_][\w-]*$/;
const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g;

type Values = Record<string, unknown> | null | undefined;

/** What is wrong with a customer text at `path` (`response_mapping.success_message`), if anything. */
export function customerTextProblem(path: string, text: unknown): string | null {
  if (text === undefined || text === null) {
    return null;
  }
  if (typeof text !== 'string') {
    return `${path}: must be a string`;
  }
  if (text.trim() === '') {
    return `${path}: must not be empty`;
  }
  if (text.length > MAX_CUSTOMER_TEXT) {
    return `${path}: must be shorter than or equal to ${MAX_CUSTOMER_TEXT} characters`;
  }
  if (/[{}]/.test(text.replace(PLACEHOLDER, ''))) {
    return `${path}: placeholders are written {{name}} (a name of letters, digits, _ and -); other braces are refused`;
  }
  return null;
}

function sayable(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return String(value);
  }
  if (typeof value === 'boolean') {
    return value ? 'yes' : 'no';
  }
  if (typeof value === 'string') {
    const text = value.trim();
    return text !== '' && text.length <= MAX_VALUE_CHARS ? text : null;
  }
  return null;
}

/**
 * `template` with each `{{name}}` filled from the first of `sources` that holds a value a
 * sentence can carry (a string, number or boolean; never an object, a list or null). Null when
 * there is no template, or when any placeholder stays unfilled: a customer never reads a
 * half-filled sentence, the caller says its built-in one instead.
 */
export function fillCustomerText(template: unknown, sources: Values[]): string | null {
  if (typeof template !== 'string' || template.trim() === '') {
    return null;
  }
  let unfilled = false;
  const text = template.replace(PLACEHOLDER, (_whole, name: string) => {
    for (const source of sources) {
      if (source && Object.prototype.hasOwnProperty.call(source, name)) {
        const value = sayable(source[name]);
        if (value !== null) {
          return value;
        }
      }
    }
    unfilled = true;
    return '';
  });
  return unfilled ? null : text.trim();
}

/** The top-level keys of a result that is an object, as placeholder values. */
export function ownKeys(result: unknown): Record<string, unknown> | null {
  return result !== null && typeof result === 'object' && !Array.isArray(result)
    ? (result as Record<string, unknown>)
    : null;
}

/**
 * A tool's own words as a customer text: short plain text (an MCP tool's text content), never
 * anything that reads as JSON. Null otherwise.
 */
export function plainText(text: string): string | null {
  const trimmed = text.trim();
  return trimmed !== '' &&
    trimmed.length <= 500 &&
    !/[{}]/.test(trimmed) &&
    !trimmed.startsWith('[')
    ? trimmed
    : null;
}
