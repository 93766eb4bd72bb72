/**
 * The question words that say what kind of answer is wanted: "where" wants an address, "when" a
 * time or opening hours, "how much" a price. They are frame words (dropped as keys), yet "where
 * are you" has nothing else to search by, and "where is your shop" should prefer the passage
 * with the street over the one that only names the shop. A cue becomes one more key whose forms
 * are the words such answers are written with; it weighs less than the customer's own words
 * (CUE_WEIGHT in passage-ranking.ts) and counts only when the knowledge holds it at all.
 */

export interface QuestionCue {
  /** The name of the cue, kept as the key's word. */
  name: string;
  /** The words (folded, joined by one space) that ask for it. */
  asked: RegExp;
  /** Words an answer of that kind is written with, English then Spanish. */
  answeredBy: string[];
}

const CUES: QuestionCue[] = [
  {
    name: 'where',
    asked: /\b(where|whereabouts|donde)\b/,
    answeredBy: [
      'where',
      'address',
      'located',
      'location',
      'street',
      'road',
      'avenue',
      'situated',
      'direccion',
      'calle',
    ],
  },
  {
    name: 'when',
    asked: /\b(when|(what|which) days?|times?|cuando|que hora)\b/,
    // "00" is a clock time as written in text ("18:00" reads as "18" and "00").
    answeredBy: [
      'when',
      'hours',
      'open',
      'closed',
      'until',
      '00',
      'mondays',
      'tuesdays',
      'wednesdays',
      'thursdays',
      'fridays',
      'saturdays',
      'sundays',
      'horario',
    ],
  },
  {
    name: 'contents',
    asked: /\b(whats|what is|what s) (in|inside)\b/,
    answeredBy: ['contains', 'includes', 'ingredients', 'made'],
  },
  {
    name: 'price',
    asked: /\b(how much|cuanto|cuanta)\b/,
    answeredBy: ['price', 'cost', 'charge', 'fee', 'euros', 'dollars', 'pounds', 'free', 'precio'],
  },
  {
    name: 'duration',
    asked: /\bhow (long|fast|quickly|soon)\b/,
    answeredBy: ['minutes', 'hours', 'days', 'weeks', 'months', 'years'],
  },
  {
    name: 'distance',
    // "How far ahead" and "how far in advance" ask for a time, not a distance.
    asked: /\bhow far\b(?! ahead| in advance)/,
    answeredBy: ['km', 'kilometres', 'kilometers', 'miles', 'metres', 'meters', 'minutes'],
  },
];

/**
 * The cues a question carries, given its folded words, and the words that asked for them: those
 * are the cue's, not the subject's ("time" in "what time do you open").
 */
export function questionCues(words: string[]): { cues: QuestionCue[]; asking: Set<string> } {
  const text = words.join(' ');
  const cues = CUES.filter((cue) => cue.asked.test(text));
  const asking = new Set(
    cues.flatMap((cue) => text.match(new RegExp(cue.asked, 'g'))!.flatMap((m) => m.split(' '))),
  );
  return { cues, asking };
}
