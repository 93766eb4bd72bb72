import type { RankedPassage } from '@/modules/knowledge/knowledge-index.service';
import { answers, CLEAR_LEAD, MIN_ANSWER_COVERAGE } from './knowledge-search';

const ranked = (coverage: number, subjectKeys = 2): RankedPassage => ({
  source: 'kb',
  title: '',
  content: 'A passage.',
  terms: '',
  score: 1,
  coverage,
  subjectKeys,
});

describe('the best passage answers on its own', () => {
  it('when it holds enough of the question, whatever comes next', () => {
    expect(answers(ranked(MIN_ANSWER_COVERAGE, 1), ranked(MIN_ANSWER_COVERAGE))).toBe(true);
    expect(answers(ranked(0.59), ranked(0.59))).toBe(false);
  });

  it('when it holds less but clearly more than the next, with two of the words asked', () => {
    expect(answers(ranked(0.5), ranked(0.3))).toBe(true);
    expect(answers(ranked(0.5), undefined)).toBe(true);
    expect(answers(ranked(0.5), ranked(0.5 - CLEAR_LEAD.lead + 0.01))).toBe(false);
    expect(answers(ranked(CLEAR_LEAD.coverage - 0.01), undefined)).toBe(false);
  });

  it('never on one word of the question alone below the threshold', () => {
    expect(answers(ranked(0.55, 1), undefined)).toBe(false);
    expect(answers(ranked(0.55, 1), ranked(0.1))).toBe(false);
  });
});
