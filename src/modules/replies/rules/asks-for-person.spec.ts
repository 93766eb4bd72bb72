import { asksForPerson } from './asks-for-person';

describe('asksForPerson', () => {
  it.each([
    'Can I talk to a human please?',
    'I want to speak with a real person',
    'let me chat to someone',
    'Connect me to an agent',
    'HUMAN PLEASE',
    'Je voudrais parler à un conseiller',
    'Puis-je parler avec quelqu’un ?',
    'Quiero hablar con una persona',
    'Posso falar com um atendente?',
    'Ich möchte mit einem Mitarbeiter sprechen',
  ])('hears a request for a person in %p', (message) => {
    expect(asksForPerson(message)).toBe(true);
  });

  it.each([
    'Where is my order?',
    'I am a person who likes red shoes',
    'My son is a human rights lawyer',
    'The agent at the door took my parcel',
    'Talk is cheap, show me the shoes',
    'hablar de precios',
    'Je vais parler à une amie de vos chaussures',
    'Voy a hablar con un amigo',
  ])('hears none in %p', (message) => {
    expect(asksForPerson(message)).toBe(false);
  });
});
