import { rankPassages, UNKNOWN_WORD_WEIGHT } from './passage-ranking';
import { searchKeys } from './search-terms';

const passage = (content: string, title = '') => ({
  source: title ? ('faq' as const) : ('kb' as const),
  title,
  content,
  terms: '',
});

describe('passage ranking', () => {
  const candidates = [
    passage('Refunds are paid back within five business days.'),
    passage('Our shop opens at 9 and closes at 18, every day but Sunday.'),
    passage('Yes, within 5 km.', 'Do you deliver?'),
  ];

  it('ranks the passage holding the most of the question first, with its coverage', () => {
    const keys = searchKeys('refund paid in days?');
    expect(keys.map((key) => key.text)).toEqual(['refund', 'paid', 'day']);
    const [best, second] = rankPassages(keys, candidates, { total: 40, counts: [1, 2, 3] });
    expect(best.content).toMatch(/^Refunds/);
    expect(best.coverage).toBe(1);
    expect(second.content).toMatch(/every day/);
    expect(second.coverage).toBeLessThan(0.4);
  });

  it('weighs a word no passage holds at 0.6 of the rarest, and a missing number not at all', () => {
    const keys = searchKeys('do you deliver gift boxes for 4?');
    const [best] = rankPassages(keys, candidates, { total: 40, counts: [1, 0, 0, 0] });
    expect(best.title).toBe('Do you deliver?');
    expect(best.coverage).toBeCloseTo(1 / (1 + 2 * UNKNOWN_WORD_WEIGHT), 2);
  });

  it('counts a number for the passage holding it, never against one that does not', () => {
    const keys = searchKeys('can we arrive after 11pm, and do you deliver for 5?');
    const frequencies = { total: 40, counts: [1, 1, 1, 1] };
    const ranked = rankPassages(keys, [...candidates, passage('Arrive any time.')], frequencies);
    const arrive = ranked.find((p) => p.content === 'Arrive any time.')!;
    const deliver = ranked.find((p) => p.title === 'Do you deliver?')!;
    expect(keys.map((key) => key.text)).toEqual(['arriv', '11pm', 'deliv', '5']);
    expect(arrive.coverage).toBeCloseTo(0.5, 2);
    expect([arrive.subjectKeys, deliver.subjectKeys]).toEqual([1, 1]);
    expect(deliver.coverage).toBeCloseTo(2 / 3, 2);
  });

  it('leaves out candidates that hold none of the keys', () => {
    expect(rankPassages(searchKeys('parking'), candidates, { total: 3, counts: [0] })).toEqual([]);
  });
});
