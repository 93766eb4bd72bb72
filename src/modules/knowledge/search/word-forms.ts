/**
 * General-purpose English word tables for search: the irregular forms a suffix-stripping stem
 * cannot join ("left" and "leave", "bought" and "buy"), and the few words customers and
 * businesses use for one thing ("bike" and "bicycle", "price" and "cost"). They are written for
 * customer service in general, not for any one business: a customer writes their own word, the
 * business wrote another, and neither should need the other's vocabulary. Synonyms weigh less
 * than the customer's literal word (see SYNONYM_WEIGHT in search-terms.ts).
 */

/** A verb's or noun's forms that no suffix rule joins: base form first. */
const IRREGULAR_FORMS: string[] = [
  'begin began begun',
  'break broke broken',
  'buy bought',
  'catch caught',
  'choose chose chosen',
  'drink drank drunk',
  'drive drove driven',
  'eat ate eaten',
  'fall fell fallen',
  'feel felt',
  'find found',
  'fly flew flown',
  'forget forgot forgotten',
  'freeze froze frozen',
  'grow grew grown',
  'hear heard',
  'hide hid hidden',
  'hold held',
  'keep kept',
  'leave left leaving',
  'lend lent',
  'lose lost',
  'mean meant',
  'meet met',
  'pay paid paying payment payments',
  'ride rode ridden',
  'say said',
  'see saw seen',
  'sell sold',
  'send sent',
  'shake shook shaken',
  'sleep slept',
  'speak spoke spoken',
  'spend spent',
  'stand stood',
  'steal stole stolen',
  'swim swam swum swimming',
  'take took taken',
  'teach taught',
  'tear tore torn',
  'think thought',
  'throw threw thrown',
  'wake woke woken',
  'wear wore worn',
  'write wrote written',
  'child children',
  'person people',
  'man men',
  'woman women',
  'foot feet',
  'tooth teeth',
];

/**
 * Words for the same thing in what customers ask about: prices, buying and renting, repairs,
 * bookings, deliveries, places and times. Each group is symmetric. Two sides of one exchange
 * count as one ("sell" to a shop is the shop's "buy", "borrow" is the lender's "loan").
 */
const SYNONYM_GROUPS: string[] = [
  'price cost charge fee fare',
  'cheap inexpensive affordable',
  'discount reduction concession',
  'free complimentary',
  'buy purchase sell',
  'borrow lend loan rent rental hire',
  'bike bicycle',
  'car vehicle',
  'car drive',
  'phone mobile smartphone cellphone',
  'laptop notebook',
  'fix repair mend',
  'screen display',
  'passcode password pin',
  'accept take',
  'collect pickup collection',
  'taxi cab',
  'laundry washing',
  'motorhome campervan camper caravan',
  'broken damaged faulty cracked',
  'book reserve reservation booking appointment',
  'refund reimburse reimbursement',
  'deliver delivery courier',
  'post mail postage postal shipping',
  'address location located',
  'nearest closest nearby',
  'kid child',
  'toilet restroom bathroom washroom lavatory',
  'wifi internet wireless',
  'staff employee personnel',
  'job vacancy career',
  'guarantee warranty',
  'receipt invoice',
  'quick fast rapid speedy express',
  'big large',
  'small little tiny',
  'start begin',
  'finish end',
  'leave depart departure checkout',
  'arrive arrival checkin',
  'ahead advance beforehand',
  'outside outdoor terrace patio',
  'sit seat seating',
  'home house',
  'old used',
  'monday tuesday wednesday thursday friday saturday sunday',
  'luggage baggage suitcase',
  'help support assistance',
  'question enquiry inquiry',
  'complaint complain',
  'photo picture photograph',
  'message sms',
  'bedding linen sheets',
  'swim bathe',
];

/** A broader word and the narrower ones it covers: "pet" meets "dog", but "dog" never "cat". */
const HYPERNYMS: Record<string, string> = {
  pet: 'dog cat',
  weekend: 'saturday sunday',
  weekday: 'monday tuesday wednesday thursday friday',
  boat: 'kayak canoe rowboat',
  card: 'visa mastercard',
};

function table(lines: string[]): Map<string, string[]> {
  const byWord = new Map<string, string[]>();
  for (const line of lines) {
    const group = line.split(' ');
    for (const word of group) {
      byWord.set(word, [...(byWord.get(word) ?? []), ...group.filter((w) => w !== word)]);
    }
  }
  return byWord;
}

const IRREGULAR = table(IRREGULAR_FORMS);
const SYNONYMS = table(SYNONYM_GROUPS);
for (const [broad, narrow] of Object.entries(HYPERNYMS)) {
  const narrower = narrow.split(' ');
  SYNONYMS.set(broad, [...(SYNONYMS.get(broad) ?? []), ...narrower]);
  for (const word of narrower) {
    SYNONYMS.set(word, [...(SYNONYMS.get(word) ?? []), broad]);
  }
}

/** Phrases customers use for one word of the tables. */
const PHRASES: Record<string, string> = { 'money back': 'refund' };

/** The particles of phrasal verbs, written as one word in some nouns ("pick up" → "pickup"). */
const PARTICLES = new Set(['up', 'in', 'out', 'off', 'on', 'over', 'down', 'away']);

/**
 * The words of a question with its phrases read as the word of the tables they stand for: a
 * phrasal verb whose one-word noun the tables know ("check out" → "checkout", "pick up" →
 * "pickup"), and the phrases above ("money back" → "refund").
 */
export function joinPhrases(words: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const [word, next] = [words[i], words[i + 1]];
    const phrase = PHRASES[`${word} ${next}`];
    if (phrase || (PARTICLES.has(next) && knownWord(`${word}${next}`))) {
      joined.push(phrase ?? `${word}${next}`);
      i++;
    } else {
      joined.push(word);
    }
  }
  return joined;
}

/** The word's other irregular forms ("left" → "leave", "leaving"), none when it has none. */
export function irregularForms(word: string): string[] {
  return IRREGULAR.get(word) ?? [];
}

/**
 * The words for the same thing as `word` or any of its forms (`forms` as the caller stems them,
 * so "prices" finds the group of "price").
 */
export function synonymsOf(words: string[]): string[] {
  return [...new Set(words.flatMap((word) => SYNONYMS.get(word) ?? []))].filter(
    (synonym) => !words.includes(synonym),
  );
}

/** Every word of the tables. */
export function tableWords(): string[] {
  return [...new Set([...IRREGULAR.keys(), ...SYNONYMS.keys()])];
}

/** Whether the word is in one of the tables (a real word, not a typo). */
export function knownWord(word: string): boolean {
  return IRREGULAR.has(word) || SYNONYMS.has(word);
}
