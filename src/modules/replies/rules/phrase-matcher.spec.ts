import { PhraseMatcher } from './phrase-matcher';

const found = (text: string, ...phrases: string[]) =>
  new PhraseMatcher(phrases).find(text).map((index) => phrases[index]);
const matches = (text: string, phrase: string) => found(text, phrase).length === 1;

/** The matching the engine did before: one regular expression per phrase and message. */
function regexFor(phrase: string): RegExp | null {
  const words = phrase
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (words.length === 0) {
    return null;
  }
  return new RegExp(`(?<![\\p{L}\\p{N}_])${words.join('\\s+')}(?![\\p{L}\\p{N}_])`, 'iu');
}

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('PhraseMatcher', () => {
  it('matches whole words only, in any case', () => {
    expect(matches('I want a REFUND now', 'refund')).toBe(true);
    expect(matches('Refund please', 'REFUND')).toBe(true);
    expect(matches('refundable', 'refund')).toBe(false);
    expect(matches('nonrefund', 'refund')).toBe(false);
    expect(matches('refund_policy', 'refund')).toBe(false);
    expect(matches('refund2', 'refund')).toBe(false);
    expect(matches('anything', '  ')).toBe(false);
  });

  it('treats punctuation as a word boundary and matches it literally', () => {
    expect(matches('refund? now', 'refund')).toBe(true);
    expect(matches('(refund)', 'refund')).toBe(true);
    expect(matches('a+b (c)', 'a+b')).toBe(true);
    expect(matches('a + b', 'a+b')).toBe(false);
    expect(matches('xa+b', 'a+b')).toBe(false);
    expect(matches('hey !urgent', '!urgent')).toBe(true);
    expect(matches('x!urgent', '!urgent')).toBe(false);
    expect(matches('!!urgent', '!urgent')).toBe(true);
    expect(matches('urgent!now', 'urgent!')).toBe(false);
    expect(matches('what?', '?')).toBe(false);
    expect(matches('what ?', '?')).toBe(true);
  });

  it('matches letters of any script as words, folding their case', () => {
    expect(matches('ÜRÜN iade', 'ürün')).toBe(true);
    expect(matches('Ürünler', 'Ürün')).toBe(false);
    expect(matches('Prix en €, café', 'café')).toBe(true);
    expect(matches('CAFÉ', 'café')).toBe(true);
    expect(matches('cafés', 'café')).toBe(false);
    expect(matches('ΟΔΥΣΣΕΥΣ', 'οδυσσευς')).toBe(true);
    expect(matches('ΟΔΥΣΣΕΥΣ', 'οδυσσευσ')).toBe(true);
    expect(matches('\u212a', 'k')).toBe(true);
    expect(matches('ISTANBUL', 'ıstanbul')).toBe(false);
    expect(matches('straße', 'STRASSE')).toBe(false);
    expect(matches('電話番号', '電話')).toBe(false);
    expect(matches('電話 番号', '電話')).toBe(true);
  });

  it('matches a phrase of several words across any run of white space', () => {
    expect(matches('can I  talk to a human?', 'talk to a human')).toBe(true);
    expect(matches('talk\tto\na   human', ' talk to  a human ')).toBe(true);
    expect(matches('talk to a humane person', 'talk to a human')).toBe(false);
    expect(matches('talk to-a human', 'talk to a human')).toBe(false);
    expect(matches('talkto a human', 'talk to a human')).toBe(false);
  });

  it('reports every phrase found, once, in the order given', () => {
    expect(
      found('my order, no refund: a refund!', 'refund', 'order', 'delivery', 'refund'),
    ).toEqual(['refund', 'order', 'refund']);
    expect(found('she sells', 'he', 'she', 'sells', 'he sells')).toEqual(['she', 'sells']);
    expect(found('a a a a', 'a a a', 'a a', 'a a a a a')).toEqual(['a a a', 'a a']);
  });

  it('agrees with one regular expression per phrase on random texts', () => {
    const next = random(12);
    const alphabet = [
      ...'aAbB01_ ',
      '  ',
      '\t',
      '\n',
      '\u00a0',
      ...'.,!?+-()*$\\',
      'é',
      'É',
      'e\u0301',
      'ü',
      'Ü',
      'ß',
      'ẞ',
      'ı',
      'I',
      'i',
      'İ',
      'ſ',
      's',
      'S',
      'K',
      '\u212a',
      'k',
      'σ',
      'ς',
      'Σ',
      '\u0345',
      'ι',
      '電',
      '😀',
      '\u1fd3',
      '\u0390',
      'Ⅸ',
      'ⅸ',
    ];
    const pick = (length: number) =>
      Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    // Compiling the reference expressions is the slow part: each serves several texts.
    for (let round = 0; round < 40; round++) {
      const texts = Array.from({ length: 8 }, () => pick(5 + Math.floor(next() * 60)));
      const phrases = Array.from({ length: 20 }, () => {
        const text = texts[Math.floor(next() * texts.length)];
        const start = Math.floor(next() * text.length);
        return next() < 0.5
          ? text.slice(start, start + 1 + Math.floor(next() * 8))
          : pick(1 + Math.floor(next() * 4));
      });
      const matcher = new PhraseMatcher(phrases);
      const expected = texts.map(() => [] as string[]);
      for (const phrase of phrases) {
        const regex = regexFor(phrase);
        texts.forEach((text, index) => regex?.test(text) && expected[index].push(phrase));
      }
      texts.forEach((text, index) => {
        const actual = matcher.find(text).map((found) => phrases[found]);
        expect({ text, found: actual }).toEqual({ text, found: expected[index] });
      });
    }
  });
});
