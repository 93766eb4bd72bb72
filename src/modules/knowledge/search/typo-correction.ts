/**
 * A question word the agent's knowledge never uses may be a typo of one it does ("batery",
 * "lifegaurd"): it is corrected to the closest words of the agent's own vocabulary, by edit
 * distance (a swap of two letters counts as one edit). Short words allow fewer edits, as one
 * edit turns a short word into another real word ("cat", "car", "fell", "fill"); a word of the
 * word tables (word-forms.ts) is a real word, never a typo.
 *
 * Before the agent's vocabulary, the words of the search's own tables are tried: the words of
 * the synonym tables and of the question-type cues ("adress" → "address", "garantee" →
 * "guarantee"), which reach what the knowledge writes in other words ("warranty", a street).
 */
import { cueWords } from './question-cues';
import { words } from './search-terms';
import { knownWord, tableWords } from './word-forms';

/** Words this short are never corrected. */
const MIN_CORRECTED_CHARS = 5;
/** Words up to this long allow one edit; longer words two. */
const ONE_EDIT_CHARS = 6;
/** At most this many equally close words replace a typo. */
const MAX_CORRECTIONS = 3;

export function maxEdits(word: string): number {
  if (word.length < MIN_CORRECTED_CHARS || /\p{N}/u.test(word) || knownWord(word)) {
    return 0;
  }
  return word.length <= ONE_EDIT_CHARS ? 1 : 2;
}

/** The optimal string alignment distance between a and b, or max + 1 once it exceeds max. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) {
    return max + 1;
  }
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, before[j - 2] + 1);
      }
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) {
      return max + 1;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/** The vocabulary's words closest to `word` within its allowed edits (none if it allows none). */
export function corrections(
  word: string,
  vocabulary: Iterable<string>,
  allowed = maxEdits(word),
): string[] {
  let best = allowed + 1;
  let found: string[] = [];
  for (const term of vocabulary) {
    if (term === word) {
      continue;
    }
    const distance = editDistance(word, term, Math.min(allowed, best));
    if (distance < best) {
      best = distance;
      found = [term];
    } else if (distance === best && distance <= allowed) {
      found.push(term);
    }
  }
  return best <= allowed ? found.slice(0, MAX_CORRECTIONS) : [];
}

/** Whether a vocabulary word is worth keeping for corrections: letters, not too short. */
export function vocabularyWord(word: string): boolean {
  return word.length >= MIN_CORRECTED_CHARS - 1 && word.length <= 40 && !/\p{N}/u.test(word);
}

/** The general words a question's typo is first compared with: the tables' and the cues'. */
const DICTIONARY = [...new Set([...tableWords(), ...cueWords()])];

/**
 * The question with each of `unknown` (words the knowledge never uses) that is one edit away
 * from exactly one word of the tables read as that word, or null when none is. One edit only: a
 * general word two edits away is as often another word ("fishing", "washing").
 */
export function withDictionaryWords(question: string, unknown: string[]): string | null {
  const fixes = new Map<string, string>();
  for (const word of unknown) {
    const close = corrections(word, DICTIONARY, Math.min(1, maxEdits(word)));
    if (close.length === 1) {
      fixes.set(word, close[0]);
    }
  }
  if (fixes.size === 0) {
    return null;
  }
  return words(question)
    .map((word) => fixes.get(word) ?? word)
    .join(' ');
}
