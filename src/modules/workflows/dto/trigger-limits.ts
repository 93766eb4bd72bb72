import { applyDecorators } from '@nestjs/common';
import { ValidateBy, ValidationArguments } from 'class-validator';
import { LIMITS } from '@/common/validation/limits';
import { triggerPhrases } from '../workflow-rules';

// The reply engine compiles every trigger phrase and flow keyword of a workflow: these bound that
// work and the memory it holds, far above what a real workflow uses.

type Counter = (item: Record<string, unknown>) => number;

function total(items: unknown, count: Counter): number {
  if (!Array.isArray(items)) {
    return 0;
  }
  return (items as unknown[]).reduce<number>(
    (sum, item) =>
      sum +
      (item !== null && typeof item === 'object' ? count(item as Record<string, unknown>) : 0),
    0,
  );
}

const atMostInAll = (name: string, what: string, limit: number, count: Counter) =>
  ValidateBy({
    name,
    validator: {
      validate: (items: unknown) => total(items, count) <= limit,
      defaultMessage: ({ value }: ValidationArguments) =>
        `must hold at most ${limit} ${what} in all, not ${total(value, count)}`,
    },
  });

const phrasesOf = ({ trigger }: Record<string, unknown>) =>
  typeof trigger === 'string' ? triggerPhrases(trigger) : [];

const keywordsOf = ({ trigger_keywords }: Record<string, unknown>) =>
  Array.isArray(trigger_keywords)
    ? trigger_keywords.map((entry: unknown) => {
        const keyword = (entry as { keyword?: unknown } | null)?.keyword;
        return typeof keyword === 'string' ? keyword : '';
      })
    : [];

const characters = (texts: string[]) => texts.reduce((sum, text) => sum + text.length, 0);

/** The texts of all items together, in number and in characters; `noun` names the constraints. */
const MaxTexts = (
  noun: string,
  what: string,
  textsOf: (item: Record<string, unknown>) => string[],
) =>
  applyDecorators(
    atMostInAll(`max${noun}s`, what, LIMITS.triggerPhrases, (item) => textsOf(item).length),
    atMostInAll(`max${noun}Characters`, `characters of ${what}`, LIMITS.triggerCharacters, (item) =>
      characters(textsOf(item)),
    ),
  );

/** On `rules`: the phrases of all rule triggers together. */
export const MaxTriggerPhrases = () => MaxTexts('TriggerPhrase', 'trigger phrases', phrasesOf);

/** On `flows`: the trigger keywords of all flows together. */
export const MaxTriggerKeywords = () => MaxTexts('TriggerKeyword', 'trigger keywords', keywordsOf);

/** On a rule's `trigger`: each comma-separated phrase no longer than a keyword may be. */
export const TriggerPhraseLength = () =>
  ValidateBy({
    name: 'triggerPhraseLength',
    validator: {
      validate: (trigger: unknown) =>
        typeof trigger !== 'string' ||
        triggerPhrases(trigger).every((phrase) => phrase.length <= LIMITS.name),
      defaultMessage: () =>
        `each phrase must be shorter than or equal to ${LIMITS.name} characters`,
    },
  });
