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
  /**
   * Words that ask for the same once the cue is asked ("close" in "what time do you close"):
   * they join the cue instead of being a subject of their own that the answer may not repeat.
   */
  joins?: RegExp;
}

const CUES: QuestionCue[] = [
  {
    name: 'where',
    asked: /\b(where|whereabouts|address|addresses|location|located|donde)\b/,
    // The business itself, as a customer names it asking where it is ("the address of the shop").
    joins: /\b(shop|store|premises|place|building|office)\b/g,
    answeredBy: [
      'where',
      'address',
      'located',
      'location',
      'street',
      'road',
      'avenue',
      'situated',
      'next',
      'near',
      'opposite',
      'beside',
      'behind',
      'corner',
      'entrance',
      'gate',
      'floor',
      'direccion',
      'calle',
    ],
  },
  {
    name: 'when',
    asked:
      /\b(when|(what|which) days?|times?|earliest|latest|today|tonight|tomorrow|cuando|que hora)\b/,
    joins: /\b(open|opens|opening|close|closes|closing|closed|hours)\b/g,
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
    asked: /\b((whats|what is|what s) (in|inside)|ingredients?|made (of|from|with))\b/,
    answeredBy: ['contains', 'includes', 'ingredients', 'made'],
  },
  {
    name: 'price',
    // "How much notice" asks for a time.
    asked:
      /\b(how much(?! time| notice)|price|prices|cost|costs|charge|charges|fee|fees|cuanto|cuanta|precio)\b/,
    answeredBy: ['price', 'cost', 'charge', 'fee', 'euros', 'dollars', 'pounds', 'free', 'precio'],
  },
  {
    name: 'duration',
    asked:
      /\b(how (long|fast|quick|quickly|soon)|how much (time|notice)|how many (minutes|hours|days|weeks))\b/,
    answeredBy: ['minutes', 'hours', 'days', 'weeks', 'months', 'years'],
  },
  {
    name: 'distance',
    // "How far ahead" and "how far in advance" ask for a time, not a distance.
    asked: /\bhow far\b(?! ahead| in advance)/,
    answeredBy: ['km', 'kilometres', 'kilometers', 'miles', 'metres', 'meters', 'minutes'],
  },
  {
    name: 'route',
    // "How do we get there", "directions", "the best way to drive to you"; not "how do I get a
    // refund" (a way to get something, not somewhere).
    asked:
      /\b(directions?|how (do|can|could|should|would) (i|we|you) (get|find|reach) (to|there|here|you)|how to (get|find|reach) (to|there|here|you)|way to (get|go|come|reach)|way to(?= (drive|walk|cycle|travel)))\b/,
    answeredBy: [
      'exit',
      'motorway',
      'highway',
      'follow',
      'turn',
      'signs',
      'road',
      'km',
      'miles',
      'bus',
      'train',
      'tram',
      'station',
      'walk',
      'drive',
    ],
  },
];

/** The single words that ask for a cue, as customers misspell them too ("adress"). */
const ASKING_WORDS = [
  'where',
  'whereabouts',
  'address',
  'location',
  'directions',
  'when',
  'tomorrow',
  'tonight',
  'earliest',
  'latest',
  'ingredients',
  'price',
  'charge',
];

/** The words of the cues: those asking for one and those answering it. */
export function cueWords(): string[] {
  return [...new Set([...ASKING_WORDS, ...CUES.flatMap((cue) => cue.answeredBy)])];
}

/**
 * The cues a question carries, given its folded words, and the words that asked for them: those
 * are the cue's, not the subject's ("time" in "what time do you open").
 */
export function questionCues(words: string[]): { cues: QuestionCue[]; asking: Set<string> } {
  const text = words.join(' ');
  const cues = CUES.filter((cue) => cue.asked.test(text));
  const asking = new Set(
    cues.flatMap((cue) =>
      [
        ...text.matchAll(new RegExp(cue.asked, 'g')),
        ...(cue.joins ? text.matchAll(cue.joins) : []),
      ].flatMap((m) => m[0].split(' ')),
    ),
  );
  return { cues, asking };
}
