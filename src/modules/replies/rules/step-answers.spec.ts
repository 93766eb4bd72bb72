import { isQuestion, validAnswer } from './step-answers';

describe('validAnswer', () => {
  it.each([
    ['email', 'it is ada@kiki.shop thanks', 'ada@kiki.shop'],
    ['email', 'ada at kiki dot shop', null],
    ['phone', 'call me on +234 803 555 0101', '+234 803 555 0101'],
    ['phone', 'call me at 12', null],
    ['number', 'I need 3 pairs', '3'],
    ['number', 'a few', null],
    ['order_id', 'my order is KK-1042, thanks', 'KK-1042'],
    ['order_id', '#1042', '1042'],
    ['order_id', 'what are your opening hours?', null],
  ] as const)('%s in %p keeps %p', (kind, answer, kept) => {
    expect(validAnswer(kind, answer)).toBe(kept);
  });

  it('keeps the match of a pattern, case-insensitively', () => {
    expect(validAnswer({ pattern: 'KK-\\d{4}' }, 'it is kk-1042')).toBe('kk-1042');
    expect(validAnswer({ pattern: 'KK-\\d{4}' }, 'it is KK-12')).toBeNull();
  });
});

describe('isQuestion', () => {
  it.each([
    ['what are your opening hours', true],
    ['Do you deliver to Lagos', true],
    ['¿Tienen tallas grandes', true],
    ['Où est votre boutique ?', true],
    ['KK-1042', false],
    ['my email is ada@kiki.shop', false],
  ])('%p: %p', (text, question) => {
    expect(isQuestion(text)).toBe(question);
  });
});
