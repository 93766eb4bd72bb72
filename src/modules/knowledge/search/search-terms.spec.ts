import {
  compounds,
  keyOf,
  keyMatches,
  matchWeight,
  phrasalCompounds,
  searchKeys,
  SYNONYM_WEIGHT,
  words,
} from './search-terms';

const keysOf = (question: string) => searchKeys(question).map((key) => key.text);

describe('search keys', () => {
  it('keep the subject of a question, folded, without its frame words', () => {
    expect(keysOf('How long do REFUNDS take?')).toEqual(['refund', 'take', '?duration']);
    expect(keysOf('¿Abren el DOMINGO?')).toEqual(['abren', 'doming']);
    expect(keysOf('Hi! can u tell me if there is anything vegan?')).toEqual(['vegan']);
    expect(keysOf('hello?')).toEqual([]);
  });

  it('meet the words of the same stem in a text', () => {
    const [refund] = searchKeys('refunds');
    for (const word of ['refund', 'refunds', 'refunded', 'refundable']) {
      expect(keyMatches(refund, word)).toBe(true);
    }
    const [shipping] = searchKeys('shipping');
    expect(['ship', 'ships', 'shipped'].every((word) => keyMatches(shipping, word))).toBe(true);
    const [delivery] = searchKeys('delivery');
    expect(keyMatches(delivery, 'delivered')).toBe(true);
    expect(keyMatches(delivery, 'deli')).toBe(false);
  });

  it('meet the forms of a word ending in a silent e or a comparative', () => {
    const [arrive] = searchKeys('arrive');
    expect(['arrival', 'arriving', 'arrived'].every((word) => keyMatches(arrive, word))).toBe(true);
    const [cheaper] = searchKeys('cheaper');
    expect(keyMatches(cheaper, 'cheap')).toBe(true);
    const [water] = searchKeys('water');
    expect(keyMatches(water, 'wat')).toBe(false);
    const [summer] = searchKeys('summer');
    expect(keyMatches(summer, 'sum')).toBe(false);
  });

  it('match short words whole, or their plural', () => {
    const [dog] = searchKeys('dog');
    expect(dog).toMatchObject({ word: 'dog', text: 'dog', exact: true });
    expect(['dog', 'dogs'].map((word) => keyMatches(dog, word))).toEqual([true, true]);
    expect(keyMatches(dog, 'dogma')).toBe(false);
    expect(keysOf('a table for 4')).toEqual(['tabl', '4']);
  });

  it('meet the irregular forms of a word as the word itself', () => {
    const [left] = searchKeys('when must we have left?');
    expect(['leave', 'leaving', 'left'].map((word) => matchWeight(left, word))).toEqual([1, 1, 1]);
    const [bought] = searchKeys('bought');
    expect(matchWeight(bought, 'buy')).toBe(1);
    expect(matchWeight(bought, 'purchased')).toBe(SYNONYM_WEIGHT);
  });

  it('meet synonyms and narrower words at a lower weight, never unrelated siblings', () => {
    const [bike] = searchKeys('bikes');
    expect(matchWeight(bike, 'bicycles')).toBe(SYNONYM_WEIGHT);
    const prices = keyOf('prices');
    expect(['costs', 'charge', 'fees'].map((word) => matchWeight(prices, word))).toEqual([
      SYNONYM_WEIGHT,
      SYNONYM_WEIGHT,
      SYNONYM_WEIGHT,
    ]);
    const [pet] = searchKeys('pets');
    expect(matchWeight(pet, 'dogs')).toBe(SYNONYM_WEIGHT);
    const [dog] = searchKeys('dog');
    expect(matchWeight(dog, 'pet')).toBe(SYNONYM_WEIGHT);
    expect(matchWeight(dog, 'cat')).toBe(0);
    const [thursday] = searchKeys('thursday');
    expect(matchWeight(thursday, 'tuesday')).toBe(SYNONYM_WEIGHT);
    const [rental] = searchKeys('rental');
    expect(matchWeight(rental, 'rented')).toBe(SYNONYM_WEIGHT);
    const [checkout] = searchKeys('checkout');
    expect(matchWeight(checkout, 'left')).toBe(SYNONYM_WEIGHT);
    const [postage] = searchKeys('postage');
    expect(matchWeight(postage, 'shipping')).toBe(SYNONYM_WEIGHT);
    const [old] = searchKeys('old');
    expect(matchWeight(old, 'used')).toBe(SYNONYM_WEIGHT);
    const [pay] = searchKeys('pay');
    expect(matchWeight(pay, 'payments')).toBe(1);
  });

  it('read a phrase as the word of the tables it stands for', () => {
    expect(keysOf('what time is check out')).toEqual(['checko', '?when']);
    const [pickup] = searchKeys('do you pick up the crates');
    expect(matchWeight(pickup, 'collect')).toBe(SYNONYM_WEIGHT);
    const [refund] = searchKeys('do I get my money back');
    expect(refund.text).toBe('refund');
    expect(keysOf('can you pick me up')).toEqual(['pick']);
  });

  it('read text in any script, without accents', () => {
    expect(words('Réparations de vélos, Straße 5, 東京')).toEqual([
      'reparations',
      'de',
      'velos',
      'straße',
      '5',
      '東京',
    ]);
  });

  it('index phrasal verbs also written as one, not a frame word and a particle', () => {
    expect(phrasalCompounds('Back up the phone first; we pick them up and check in at noon.')).toBe(
      'backup checkin',
    );
    const [backup] = searchKeys('should I make a backup');
    expect(keyMatches(backup, 'backup')).toBe(true);
  });

  it('index hyphenated words also written as one', () => {
    expect(compounds('Free Wi-Fi; check-in from 14:00; a 12-month warranty.')).toBe(
      'wifi checkin 12month',
    );
  });
});
