/**
 * Simple case folding, as a case-insensitive Unicode regular expression (flags `iu`) compares
 * characters: two strings fold to the same text exactly when such a regex of one matches the
 * other. Not `toLowerCase()`: "ſ" and "ς" are their own lower case but fold to "s" and "σ", and
 * "İ" lower-cases to two characters but folds to itself.
 */

// Folding pairs that no case mapping leads to (CaseFolding.txt, Unicode 15).
const UNMAPPED_FOLDS = new Map([
  ['\u1fd3', '\u0390'],
  ['\u1fe3', '\u03b0'],
  ['\ufb05', '\ufb06'],
]);

const ASCII = /^\p{ASCII}*$/u;

// Only characters that have a case mapping are cached: a few thousand at most.
const folded = new Map<string, string>();

function isOneCodePoint(text: string): boolean {
  return text.length > 0 && text.length === (text.codePointAt(0)! > 0xffff ? 2 : 1);
}

function matchesIgnoringCase(char: string, other: string): boolean {
  const hex = char.codePointAt(0)!.toString(16);
  return new RegExp(`^\\u{${hex}}$`, 'iu').test(other);
}

function foldCased(char: string): string {
  const known = UNMAPPED_FOLDS.get(char);
  if (known) {
    return known;
  }
  const candidates = [char.toUpperCase().toLowerCase(), char.toLowerCase()];
  return (
    candidates.find(
      (candidate) => isOneCodePoint(candidate) && matchesIgnoringCase(char, candidate),
    ) ?? char
  );
}

function foldChar(char: string): string {
  let result = folded.get(char);
  if (result === undefined) {
    if (char.toLowerCase() === char && char.toUpperCase() === char) {
      return char;
    }
    result = foldCased(char);
    folded.set(char, result);
  }
  return result;
}

export function foldCase(text: string): string {
  if (ASCII.test(text)) {
    return text.toLowerCase();
  }
  if (text.toLowerCase() === text && text.toUpperCase() === text) {
    return text;
  }
  let result = '';
  for (const char of text) {
    result += foldChar(char);
  }
  return result;
}
