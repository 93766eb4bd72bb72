/** The most of a result handed back (to a model, into a run): a model reads it on every step. */
export const MAX_RESULT_CHARS = 16_000;
/** An error is a line a person reads, in the run and in the conversation. */
export const MAX_ERROR_CHARS = 2_000;

/** The start of `text`, marked cut, `max` characters in all (a surrogate pair is not split). */
function cut(text: string, max: number): string {
  const note = `… (cut: the answer had ${text.length} characters)`;
  let end = max - note.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) {
    end -= 1;
  }
  return `${text.slice(0, end)}${note}`;
}

/** `text` as it is when it has at most `max` characters, else its start, marked cut. */
export function boundedText(text: string, max = MAX_RESULT_CHARS): string {
  return text.length <= max ? text : cut(text, max);
}

/**
 * `result` as it is when its JSON fits MAX_RESULT_CHARS; else a text of that size: the start of
 * the string, or of the JSON, marked cut.
 */
export function boundedResult(result: unknown): unknown {
  if (typeof result === 'string') {
    return boundedText(result);
  }
  const json = JSON.stringify(result ?? null);
  return json.length <= MAX_RESULT_CHARS ? (result ?? null) : cut(json, MAX_RESULT_CHARS);
}
