import { restAfterTrigger } from './message-rest';

describe('restAfterTrigger', () => {
  it.each([
    ['hi, where is my order KK-1042?', 'hi', 'where is my order KK-1042?'],
    ['Hello! Do you deliver to Lagos', 'hello, hey', 'Do you deliver to Lagos'],
    ['HEY there, can I talk to a human', 'hey', 'can I talk to a human'],
    ['Bonjour, où est votre boutique ?', 'bonjour', 'où est votre boutique ?'],
    ['hi where is my order', 'hi', 'where is my order'],
  ])('%p after %p asks %p', (message, trigger, rest) => {
    expect(restAfterTrigger(message, trigger)).toBe(rest);
  });

  it.each([
    ['Hello there!', 'hello'],
    ['hi, thanks so much', 'hi'],
    ['I want a refund please', 'refund'],
    ['refund?', 'refund'],
    ['Good morning team', 'good morning'],
    ['What is my order status?', 'order status'],
    ['Bu ÜRÜN IADE edilebilir mi?', 'ürün iade'],
    ['order status of KK-1?', 'order status'],
    ['un CAFÉ  crème, svp', 'café crème'],
  ])('%p is covered by %p', (message, trigger) => {
    expect(restAfterTrigger(message, trigger)).toBeNull();
  });

  it('matches trigger phrases as whole words only', () => {
    expect(restAfterTrigger('history: where is it?', 'hi')).toBe('history: where is it?');
  });
});
