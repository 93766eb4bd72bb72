import type { StepValidation } from '@/modules/workflows/entities/workflow.entity';

/** How much of an answer a step's own pattern reads: bounded work on whatever customers send. */
const PATTERN_INPUT_CHARS = 1_000;

const EMAIL = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[a-z]{2,}/i;
const PHONE = /\+?\d[\d\s().-]{5,22}\d/;
const NUMBER = /-?\d+(?:[.,]\d+)?/;
/** An order reference: letters, digits and `-_/`, with at least one digit (`KK-1042`, `#1042`). */
const ORDER_TOKEN = /#?[A-Za-z0-9][A-Za-z0-9_/-]{1,39}/g;

function orderId(answer: string): string | null {
  for (const [token] of answer.matchAll(ORDER_TOKEN)) {
    const id = token.replace(/^#/, '').replace(/[-_/]+$/, '');
    if (/\d/.test(id) && id.length >= 2) {
      return id;
    }
  }
  return null;
}

function phone(answer: string): string | null {
  const found = PHONE.exec(answer)?.[0];
  const digits = found?.replace(/\D/g, '').length ?? 0;
  return found && digits >= 7 && digits <= 15 ? found.trim() : null;
}

/**
 * What a `collect` step with `validate` keeps of the customer's answer (the value found in it:
 * "it is ada@kiki.shop" keeps the address), or null when the answer holds none.
 */
export function validAnswer(validate: StepValidation, answer: string): string | null {
  if (typeof validate === 'object') {
    const found = new RegExp(validate.pattern, 'iu').exec(answer.slice(0, PATTERN_INPUT_CHARS));
    return found?.[0] ? found[0] : null;
  }
  switch (validate) {
    case 'email':
      return EMAIL.exec(answer)?.[0] ?? null;
    case 'phone':
      return phone(answer);
    case 'number':
      return NUMBER.exec(answer)?.[0] ?? null;
    case 'order_id':
      return orderId(answer);
  }
}

/** The first word of a question, in the languages the hand-off line speaks most. */
export const QUESTION_START =
  /^(what|where|when|why|who|which|how|can|could|do|does|did|is|are|will|would|should|quel|quelle|quels|quelles|où|quand|comment|pourquoi|est-ce|qué|que|cuándo|cuando|dónde|donde|cómo|como|por qué|quando|onde|porque|was|wo|wann|wie|warum)\b/i;

/** Whether the customer's text asks something of its own (instead of answering a step). */
export function isQuestion(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.endsWith('?') || trimmed.startsWith('¿') || QUESTION_START.test(trimmed);
}
