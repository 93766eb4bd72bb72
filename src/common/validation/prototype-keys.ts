import { fieldPath } from './validation-messages';
/** `__proto__`, `constructor`, `toString`, `valueOf`, `hasOwnProperty`… */
const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Paths of the keys in parsed JSON that name a member of Object.prototype, at any depth. Turned
 * into class instances, such keys are dropped without a word, or (`__proto__`) replace the
 * instance's prototype; in free-form objects they are a prototype-pollution vector.
 */
export function prototypeKeyPaths(value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') {
    return [];
  }
  return Object.entries(value).flatMap(([key, child]) => {
    const childPath = fieldPath(path, key);
    return PROTOTYPE_KEYS.has(key) ? [childPath] : prototypeKeyPaths(child, childPath);
  });
}
