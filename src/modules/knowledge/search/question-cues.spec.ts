import { rankPassages } from './passage-ranking';
import { questionCues } from './question-cues';
import { matchWeight, searchKeys, words } from './search-terms';

const cueNames = (question: string) => questionCues(words(question)).cues.map((cue) => cue.name);
const passage = (content: string) => ({ source: 'kb' as const, title: '', content, terms: '' });

describe('question cues', () => {
  it('read the kind of answer asked for from the question words', () => {
    expect(cueNames('where are you?')).toEqual(['where']);
    expect(cueNames('What time do you open on Sunday')).toEqual(['when']);
    expect(cueNames('¿Cuándo abren?')).toEqual(['when']);
    expect(cueNames('how much is a coffee')).toEqual(['price']);
    expect(cueNames('how long does a repair take')).toEqual(['duration']);
    expect(cueNames('how fast can you fix it')).toEqual(['duration']);
    expect(cueNames('which days do you bake rye')).toEqual(['when']);
    expect(cueNames('how far is the station')).toEqual(['distance']);
    expect(cueNames('how far ahead must I order')).toEqual([]);
    expect(cueNames('checkout time?')).toEqual(['when']);
    expect(cueNames('whats in the lasagne')).toEqual(['contents']);
    expect(cueNames('what ingredients are in your sourdough')).toEqual(['contents']);
    expect(cueNames('do you sell coffee')).toEqual([]);
  });

  it('become one key after the subject, whose forms are the words such answers use', () => {
    const keys = searchKeys('what time do you open on sundays');
    expect(keys.map((key) => key.text)).toEqual(['sunday', '?when']);
    const cue = keys[1];
    expect(cue.cue).toBe(true);
    expect(['hours', 'opening', 'closed', '00'].map((word) => matchWeight(cue, word))).toEqual([
      1, 1, 1, 1,
    ]);
    expect(matchWeight(cue, 'coffee')).toBe(0);
    expect(searchKeys('which day do you bake rye').map((key) => key.text)).toEqual([
      'bake',
      'rye',
      '?when',
    ]);
    const [, , when] = searchKeys('which day do you bake rye');
    expect(matchWeight(when, 'fridays')).toBe(1);
  });

  it('take the words that ask for the same kind of answer, not the words they cover', () => {
    expect(cueNames('whats your address')).toEqual(['where']);
    expect(cueNames('what do you charge for a cake')).toEqual(['price']);
    expect(cueNames('how much notice do you need')).toEqual(['duration']);
    expect(cueNames('can you fix it today')).toEqual(['when']);
    expect(cueNames('whats the earliest we can check in')).toEqual(['when']);
    expect(cueNames('directions by car please')).toEqual(['route']);
    expect(cueNames('how do we get there by train')).toEqual(['route']);
    expect(cueNames('whats the best way to drive to the campsite')).toEqual(['route']);
    expect(cueNames('how do I get a refund')).toEqual([]);
    expect(cueNames('is there a way to pay by card')).toEqual([]);
    const keysOf = (question: string) => searchKeys(question).map((key) => key.text);
    expect(keysOf('what time do you close on weekdays')).toEqual(['weekda', '?when']);
    expect(keysOf('are you open on mondays')).toEqual(['open', 'monday']);
    expect(keysOf('do you charge for diagnosis')).toEqual(['diagno', '?price']);
    expect(keysOf('way to drive to the lake')).toEqual(['driv', 'lake', '?route']);
    expect(keysOf('where is the shop')).toEqual(['?where']);
    expect(keysOf('is there a shop on site')).toEqual(['shop', 'site']);
  });

  it('answer a question that has no other key, and prefer the passage of the kind asked', () => {
    const candidates = [
      passage('The shop sells bread and cakes.'),
      passage('The shop is at 14 Canal Street, next to the market.'),
    ];
    const where = searchKeys('where is your shop');
    const [best] = rankPassages(where, candidates, { total: 10, counts: [2, 1] });
    expect(best.content).toMatch(/Canal Street/);
    expect(best.coverage).toBe(1);
    const [alone] = rankPassages(searchKeys('where are you'), candidates, {
      total: 10,
      counts: [1],
    });
    expect(alone.content).toMatch(/Canal Street/);
  });

  it('weigh less than the subject, and nothing when the knowledge lacks them', () => {
    const candidates = [passage('The bakery is at 14 Canal Street.')];
    const parking = searchKeys('where can I park');
    const [address] = rankPassages(parking, candidates, { total: 10, counts: [0, 1] });
    expect(address.coverage).toBeLessThan(0.6);
    const keys = searchKeys('where is the bakery');
    const [bakery] = rankPassages(keys, [passage('The bakery sells bread.')], {
      total: 10,
      counts: [1, 0],
    });
    expect(bakery.coverage).toBe(1);
  });
});
