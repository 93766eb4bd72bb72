import { corrections, editDistance, maxEdits, withDictionaryWords } from './typo-correction';

describe('typo correction', () => {
  it('counts insertions, deletions, substitutions and swaps of two letters as one edit', () => {
    expect(editDistance('batery', 'battery', 2)).toBe(1);
    expect(editDistance('lifegaurd', 'lifeguard', 2)).toBe(1);
    expect(editDistance('adress', 'address', 2)).toBe(1);
    expect(editDistance('recieve', 'receive', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 2)).toBe(3);
  });

  it('allows no edit to short words, numbers or known words, one to words up to 6 letters', () => {
    expect(['cat', 'fell', '12th', 'bike'].map(maxEdits)).toEqual([0, 0, 0, 0]);
    expect(maxEdits('batery')).toBe(1);
    expect(maxEdits('reservaton')).toBe(2);
  });

  it('corrects to the closest words of the vocabulary only, keeping ties', () => {
    const vocabulary = ['battery', 'batteries', 'bakery', 'delivery', 'lifeguard'];
    expect(corrections('batery', vocabulary)).toEqual(['battery', 'bakery']);
    expect(corrections('lifegaurd', vocabulary)).toEqual(['lifeguard']);
    expect(corrections('paypal', vocabulary)).toEqual([]);
  });

  it('reads a word the knowledge lacks one edit from a general word of the tables as that word', () => {
    expect(withDictionaryWords('Adress of the shop?', ['adress'])).toBe('address of the shop');
    expect(withDictionaryWords('is there a garantee', ['garantee'])).toBe('is there a guarantee');
    expect(withDictionaryWords('do you sell fishing permits', ['fishing', 'permits'])).toBeNull();
    expect(withDictionaryWords('can I pay with paypal', ['paypal'])).toBeNull();
  });
});
