import { triggerPhrases } from '@/modules/workflows/workflows.service';
import { asksForPerson } from './asks-for-person';
import { isQuestion, QUESTION_START } from './step-answers';

/** Words that only greet, thank or fill: a rest made of them asks nothing. */
const FILLERS = new Set(
  (
    'hi hello hey hiya yo good morning afternoon evening day there thanks thank you please pls ok ' +
    'okay and so well dear team bonjour salut merci hola buenos buenas gracias olá ola obrigado ' +
    'obrigada hallo danke ciao grazie'
  ).split(' '),
);

/** Words that carry no subject of their own: a rest needs one word beside them. */
const FUNCTION_WORDS = new Set(
  (
    'what where when why who which how is are am was were do does did can could would will ' +
    'should shall may might my your our their his her its the a an i me you we it this that ' +
    'to of for in on at with about from by be'
  ).split(' '),
);

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `phrase` as a trigger matches it: case-insensitive, whole words, any run of spaces. */
function phrasePattern(phrase: string): RegExp {
  const words = phrase.split(/\s+/).map(escaped).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${words}(?![\\p{L}\\p{N}])`, 'iu');
}

/** The message's clauses, each with the punctuation that ends it. */
const clausesOf = (message: string) => message.match(/[^,.!?;:\n]+[,.!?;:\n]*/g) ?? [];

/**
 * What a message asks beyond the rule its trigger matched ("hi, where is my order KK-1042?" with
 * the trigger "hi": "where is my order KK-1042?"), or null when the trigger covers it. The rest is
 * the clauses without a trigger phrase, and what follows a phrase that opens its clause ("hi where
 * is…"); a phrase inside a clause belongs to it ("what is my order status?"). A rest of greetings
 * and thanks, or one that asks nothing (no question, no request for a person), is covered too:
 * the rule's response answers it well enough.
 */
export function restAfterTrigger(
  message: string,
  trigger: string | null | undefined,
): string | null {
  const patterns = triggerPhrases(trigger).map(phrasePattern);
  const parts: string[] = [];
  for (const clause of clausesOf(message)) {
    const found = patterns.map((pattern) => pattern.exec(clause)).find(Boolean);
    if (!found) {
      parts.push(clause);
      continue;
    }
    const opening = withoutLeadingFillers(clause.slice(0, found.index)) === '';
    const after = withoutLeadingFillers(clause.slice(found.index + found[0].length));
    if (opening && after && (QUESTION_START.test(after) || asksForPerson(after))) {
      parts.push(after);
    }
  }
  const rest = withoutLeadingFillers(parts.join(' ').replace(/\s+/g, ' ').trim());
  const words = (rest.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (word) => !FILLERS.has(word) && !FUNCTION_WORDS.has(word),
  );
  if (words.length === 0) {
    return null;
  }
  return isQuestion(rest) || asksForPerson(rest) ? rest : null;
}

/** The text from its first word that is not a greeting or a thanks, punctuation before it gone. */
function withoutLeadingFillers(text: string): string {
  let rest = text.replace(/^[\s,.;:!-]+/u, '');
  for (;;) {
    const lead = /^(\p{L}+)[\s,.;:!-]+/u.exec(rest);
    if (!lead || !FILLERS.has(lead[1].toLowerCase())) {
      return rest.replace(/[\s,;:-]+$/u, '');
    }
    rest = rest.slice(lead[0].length);
  }
}
