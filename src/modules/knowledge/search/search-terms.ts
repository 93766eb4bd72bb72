/**
 * How questions and passages are cut into search keys, the same way for SQLite and PostgreSQL:
 * words are folded (lower case, no diacritics, so "¿Abren el DOMINGO?" meets "domingo"), the
 * question's frame (common English and Spanish words, greetings: question-frame.ts) is
 * dropped, and a word becomes the prefix of its stem, so that "refunds", "refunded" and
 * "refundable" all meet "refund", and "delivery" meets "delivered".
 * A key also carries the word's irregular forms ("left" meets "leave") and, weighing less, its
 * synonyms ("bike" meets "bicycle"): see word-forms.ts.
 */
import { questionCues } from './question-cues';
import { isFrameWord, withoutGreetings } from './question-frame';
import { irregularForms, joinPhrases, synonymsOf } from './word-forms';

/** Stems longer than this are cut to it: the key is a prefix matched against whole words. */
const KEY_CHARS = 6;
/** Words this short or shorter are matched whole ("tv", "9am"). */
const EXACT_CHARS = 3;

export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

export function words(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A light English stem: plural, -ing, -ed, -ly and comparative -er endings and a silent -e come off. */
function stem(word: string): string {
  let stemmed = word;
  for (const [suffix, replacement] of [
    ['ies', 'y'],
    ['ing', ''],
    ['ed', ''],
    ['ly', ''],
    ['es', ''],
    ['s', ''],
    ['er', ''],
  ] as const) {
    // A comparative ("cheaper") comes off only a long word: "water", "order", "summer" stay.
    const least = suffix === 'er' ? 5 : 3;
    if (stemmed.endsWith(suffix) && stemmed.length - suffix.length >= least) {
      stemmed = stemmed.slice(0, -suffix.length) + replacement;
      break;
    }
  }
  // "shipping" → "shipp" → "ship", as "shipped" does.
  if (/([^aeiouls])\1$/.test(stemmed) && stemmed.length > 3) {
    stemmed = stemmed.slice(0, -1);
  }
  // "arrive" → "arriv", so that it meets "arrival" and "arriving" as "arrived" does.
  if (/[^aeiou]e$/.test(stemmed) && stemmed.length > 4) {
    stemmed = stemmed.slice(0, -1);
  }
  return stemmed;
}

/** One way a key is written in a passage, and how much a passage holding it counts. */
export interface SearchForm {
  text: string;
  /** Whole word only (short words), else any word starting with `text`. */
  exact: boolean;
  weight: number;
}

export interface SearchKey {
  /** The question's word, folded. */
  word: string;
  /** The word's own key: its stem's prefix, or the short word itself. */
  text: string;
  exact: boolean;
  /** Every form the key meets: its own first, its irregular forms, then its synonyms. */
  forms: SearchForm[];
  /** A question-type cue ("where" → address words): see question-cues.ts. */
  cue?: boolean;
}

/** A synonym found in a passage counts for this share of the customer's own word. */
export const SYNONYM_WEIGHT = 0.6;

function formOf(word: string, weight: number): SearchForm {
  if (word.length <= EXACT_CHARS) {
    return { text: word, exact: true, weight };
  }
  return { text: stem(word).slice(0, KEY_CHARS), exact: false, weight };
}

function formsOf(word: string): SearchForm[] {
  const own = [word, ...irregularForms(word)];
  const synonyms = synonymsOf([
    ...own,
    stem(word),
    word.replace(/s$/, ''),
    ...irregularForms(stem(word)),
  ]).filter((synonym) => !own.includes(synonym));
  // A synonym's irregular forms are that synonym too ("checkout" → "leave" → "left").
  synonyms.push(...synonyms.flatMap(irregularForms).filter((form) => !own.includes(form)));
  const forms = new Map<string, SearchForm>();
  for (const form of [
    ...own.map((w) => formOf(w, 1)),
    ...synonyms.map((w) => formOf(w, SYNONYM_WEIGHT)),
  ]) {
    const id = `${form.text}|${form.exact}`;
    if (!forms.has(id)) {
      forms.set(id, form);
    }
  }
  return [...forms.values()];
}

/** The key of one word of a question. */
export function keyOf(word: string): SearchKey {
  const forms = formsOf(word);
  return { word, text: forms[0].text, exact: forms[0].exact, forms };
}

function cueKey(name: string, answeredBy: string[]): SearchKey {
  const forms = new Map(answeredBy.map((word) => formOf(word, 1)).map((f) => [f.text, f]));
  return { word: name, text: `?${name}`, exact: false, forms: [...forms.values()], cue: true };
}

/** The distinct keys of a question, in order, then the keys of its question-type cues. */
export function searchKeys(question: string): SearchKey[] {
  const seen = new Map<string, SearchKey>();
  const folded = joinPhrases(withoutGreetings(words(question)));
  const { cues, asking } = questionCues(folded);
  for (const word of folded) {
    if (isFrameWord(word) || asking.has(word)) {
      continue;
    }
    const key = keyOf(word);
    if (!seen.has(`${key.text}|${key.exact}`)) {
      seen.set(`${key.text}|${key.exact}`, key);
    }
  }
  return [...seen.values(), ...cues.map((cue) => cueKey(cue.name, cue.answeredBy))];
}

/** The whole words a short form matches: itself and its plural ("dog", "dogs"). */
export function exactForms(form: Pick<SearchForm, 'text'>): string[] {
  return [form.text, `${form.text}s`];
}

function formMatches(form: SearchForm, word: string): boolean {
  return form.exact ? form.text === word || `${form.text}s` === word : word.startsWith(form.text);
}

/** How much a passage word counts for the key: 1 for its own forms, less for a synonym, else 0. */
export function matchWeight(key: SearchKey, word: string): number {
  let best = 0;
  for (const form of key.forms) {
    if (form.weight > best && formMatches(form, word)) {
      best = form.weight;
    }
  }
  return best;
}

export function keyMatches(key: SearchKey, word: string): boolean {
  return matchWeight(key, word) > 0;
}

/**
 * Hyphenated words written as one ("Wi-Fi" → "wifi", "check-in" → "checkin"), indexed beside
 * the text so that a customer who types them either way finds them.
 */
export function compounds(text: string): string {
  return (fold(text).match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu) ?? [])
    .map((compound) => compound.replace(/-/g, ''))
    .join(' ');
}

/** The particles of phrasal verbs whose noun is written as one word ("back up" → "backup"). */
const PARTICLES = 'up|in|out|off|on|over|down|away';

/**
 * Phrasal verbs written as one ("back up the phone" → "backup", "check in" → "checkin"), indexed
 * beside the text so that the noun a customer types ("should I make a backup") meets the verb.
 */
export function phrasalCompounds(text: string): string {
  const pairs = fold(text).match(new RegExp(`\\p{L}+ (?:${PARTICLES})\\b`, 'gu')) ?? [];
  return pairs
    .map((pair) => pair.split(' '))
    .filter(([verb]) => !isFrameWord(verb))
    .map((pair) => pair.join(''))
    .join(' ');
}

/** The owner of passages as one index token: a workflow or agent id without its dashes. */
export function ownerToken(id: string): string {
  return `o${id.toLowerCase().replace(/[^0-9a-z]/g, '')}`;
}
