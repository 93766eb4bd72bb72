import { Bm25Index } from './bm25';
import { terms } from './text-match';

describe('Bm25Index', () => {
  const index = new Bm25Index([
    'Our store opens at 9am and closes at 6pm on weekdays.',
    'Refunds are paid back to your card within five business days.',
    'Delivery within Lagos takes one day; elsewhere it takes three days.',
    'We sell fresh fruit, vegetables and bread.',
  ]);

  it('ranks the passage that shares the rarest terms first', () => {
    expect(index.search('How long do refunds take?', 3)[0].index).toBe(1);
    expect(index.search('delivery to Lagos', 3)[0].index).toBe(2);
    expect(index.search('When do you open?', 3)[0].index).toBe(0);
  });

  it('finds nothing for a question about something else', () => {
    expect(index.search('Do you repair bicycles?', 3)).toEqual([]);
  });

  it('gives more weight to a rare term than to a common one', () => {
    const fruit = new Bm25Index(['apple banana', 'apple cherry', 'apple date', 'apple fig']);
    expect(fruit.search('apple cherry', 4)[0].index).toBe(1);
  });
});

describe('text matching', () => {
  it('drops stop words and stems plurals and -ing forms', () => {
    expect(terms('What are the Refunds for bookings?')).toEqual(['refund', 'book']);
  });
});
