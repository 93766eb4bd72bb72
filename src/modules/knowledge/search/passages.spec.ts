import { pageTitle, toPassages } from './passages';

describe('toPassages', () => {
  it('makes each paragraph a passage, joining a very short one (a heading) to the next', () => {
    expect(
      toPassages(
        'Hours\n\nOur shop opens at 9am and closes at 6pm, Monday to Saturday.\n\nWe are closed on Sundays and on public holidays.',
      ),
    ).toEqual([
      'Hours Our shop opens at 9am and closes at 6pm, Monday to Saturday.',
      'We are closed on Sundays and on public holidays.',
    ]);
  });

  it('splits long text at paragraph and sentence boundaries, never past the maximum', () => {
    const paragraph = Array.from(
      { length: 60 },
      (_, i) => `Sentence number ${i} talks about refunds.`,
    ).join(' ');
    const passages = toPassages(`${paragraph}\n\n${paragraph}`);
    expect(passages.length).toBeGreaterThan(2);
    for (const passage of passages) {
      expect(passage.length).toBeLessThanOrEqual(1200);
      expect(passage.endsWith('.')).toBe(true);
    }
    expect(passages.join(' ').replace(/\s+/g, ' ')).toBe(`${paragraph} ${paragraph}`);
  });

  it('wraps a single unbroken run of text', () => {
    const passages = toPassages('x'.repeat(3000));
    expect(passages.map((p) => p.length)).toEqual([1200, 1200, 600]);
  });

  it('gives nothing for blank text', () => {
    expect(toPassages(' \n\n ')).toEqual([]);
  });

  it('takes a page title from a heading that opens the text, and none from a sentence', () => {
    expect(
      pageTitle('Catering for events\n\nWe cater lunches.\n\nCancellations are refunded.'),
    ).toBe('Catering for events');
    expect(pageTitle('We cater lunches.\n\nCancellations are refunded.')).toBe('');
    expect(pageTitle('')).toBe('');
  });
});
