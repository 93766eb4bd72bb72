/** The most of a result handed back (to a model, into a run): a model reads it on every step. */
export const MAX_RESULT_CHARS = 16_000;

/** `result` as it is when its JSON fits MAX_RESULT_CHARS, else the start of that JSON, marked cut. */
export function boundedResult(result: unknown): unknown {
  const json = JSON.stringify(result ?? null);
  if (json.length <= MAX_RESULT_CHARS) {
    return result ?? null;
  }
  return `${json.slice(0, MAX_RESULT_CHARS)}… (cut: the answer had ${json.length} characters)`;
}
