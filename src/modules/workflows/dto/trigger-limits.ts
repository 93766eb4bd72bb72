import { ValidateBy, ValidationArguments } from 'class-validator';
import { LIMITS } from '@/common/validation/limits';
import { triggerPhrases } from '../trigger-phrases';

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

const atMostInAll = (name: string, what: string, count: Counter) =>
  ValidateBy({
    name,
    validator: {
      validate: (items: unknown) => total(items, count) <= LIMITS.triggerPhrases,
      defaultMessage: ({ value }: ValidationArguments) =>
        `must hold at most ${LIMITS.triggerPhrases} ${what} in all, not ${total(value, count)}`,
    },
  });

/** On `rules`: the phrases of all rule triggers together. */
export const MaxTriggerPhrases = () =>
  atMostInAll('maxTriggerPhrases', 'trigger phrases', ({ trigger }) =>
    typeof trigger === 'string' ? triggerPhrases(trigger).length : 0,
  );

/** On `flows`: the trigger keywords of all flows together. */
export const MaxTriggerKeywords = () =>
  atMostInAll('maxTriggerKeywords', 'trigger keywords', ({ trigger_keywords }) =>
    Array.isArray(trigger_keywords) ? trigger_keywords.length : 0,
  );

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
