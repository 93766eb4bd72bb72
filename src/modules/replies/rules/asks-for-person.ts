/**
 * A customer asking in so many words for a person ("can I talk to a human?", "parler à un
 * conseiller"): the request itself is the hand-off (source `customer`), whatever else the
 * message says. Kept to explicit requests, so that "a person who bought shoes" is no hand-off.
 */
const REQUESTS: RegExp[] = [
  // English
  /\b(talk|speak|chat)\s+(to|with)\s+(a|an|some|the|your)?\s*(real\s+|live\s+)?(human|person|agent|operator|representative|rep|someone|somebody|staff|manager|colleague)\b/,
  /\b(real|live|actual)\s+(human|person|agent)\b/,
  /\b(connect|transfer|put)\s+me\s+(to|with|through\s+to)\s+(a|an|some|the|your)?\s*(human|person|agent|operator|representative|someone|somebody|staff|manager)\b/,
  /\bhuman\s+(please|agent)\b/,
  // French
  /\b(parler|discuter)\s+(à|a|avec)\s+(quelqu'un|(un|une)\s+(vrai\s+|vraie\s+)?(humain|personne|conseiller|conseillère|agent|opérateur|responsable))/,
  // Spanish
  /\bhablar\s+con\s+(alguien|(un|una)\s+(humano|persona|agente|asesor|asesora|operador))/,
  /\b(persona\s+real|un\s+humano)\b/,
  // Portuguese
  /\bfalar\s+com\s+(alguém|(um|uma)\s+(humano|pessoa|atendente|agente))/,
  // German
  /\bmit\s+(einem|einer)\s+(menschen|mitarbeiter|mitarbeiterin|person)\s+(sprechen|reden)\b/,
];

export const CUSTOMER_HANDOFF_REASON = 'the customer asked for a person';

export function asksForPerson(message: string): boolean {
  const text = message.toLowerCase().replace(/[’`]/g, "'");
  return REQUESTS.some((request) => request.test(text));
}
