import { LIMITS } from '@/common/validation/limits';
import { WorkflowTriggersCache } from '@/modules/replies/rules/workflow-triggers.cache';
import {
  WorkflowEntity,
  WorkflowFlow,
  WorkflowRule,
} from '@/modules/workflows/entities/workflow.entity';
import { progress } from '../lib/log';
import { Sizes } from '../lib/options';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { ratio, round, summarize } from '../lib/stats';
import { TARGETS } from '../targets';

const WARMUP_RUNS = 5;
const PER_RULE = 4;
const VOCABULARY = (
  'refund order delivery money back talk to a human agent please cancel my subscription where ' +
  'is parcel ürün iade café crème straße Ödeme ΣΟΦΙΑ 電話 番号 invoice account password reset'
).split(' ');

/** A deterministic generator (mulberry32): every run matches the same texts. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words of the vocabulary, joined with `separators`, up to `length` characters. */
function text(next: () => number, length: number, separators = [' ']): string {
  let result = '';
  for (;;) {
    const word = VOCABULARY[Math.floor(next() * VOCABULARY.length)];
    const separator = separators[Math.floor(next() * separators.length)];
    const longer = result === '' ? word : `${result}${separator}${word}`;
    if (longer.length > length) {
      return result;
    }
    result = longer;
  }
}

function workflow(rules: WorkflowRule[], flows: WorkflowFlow[]): WorkflowEntity {
  const now = new Date();
  return {
    id: `bench-${rules.length}`,
    updatedAt: now,
    createdAt: now,
    rules,
    flows,
  } as WorkflowEntity;
}

/** Phrases as long as the limits allow when there are as many as they allow. */
const PHRASE_CHARS = Math.floor(LIMITS.triggerCharacters / LIMITS.triggerPhrases);

/**
 * The most the limits allow: 500 rules and 500 flows holding 2,000 trigger phrases and 2,000
 * keywords, together as many characters as allowed, of words that also fill the messages, so that
 * the matcher keeps finding partial phrases.
 */
function largestWorkflow(next: () => number): WorkflowEntity {
  const phrases = () => Array.from({ length: PER_RULE }, () => text(next, PHRASE_CHARS));
  const rules = Array.from({ length: LIMITS.array }, (_, i) => ({
    id: `r${i}`,
    name: `Rule ${i}`,
    trigger: phrases().join(', '),
    condition: null,
    response: `Rule ${i}`,
    action: null,
    enabled: true,
  }));
  const flows = Array.from({ length: LIMITS.array }, (_, i) => ({
    name: `Flow ${i}`,
    description: null,
    category: null,
    priority: i,
    is_active: true,
    trigger_keywords: phrases().map((keyword) => ({ keyword, weight: null })),
    conversation_steps: [],
  }));
  return workflow(rules, flows);
}

const ONE_RULE = workflow(
  [
    {
      id: 'r',
      name: 'Refund',
      trigger: 'refund',
      condition: null,
      response: 'Refund',
      action: null,
      enabled: true,
    },
  ],
  [],
);

/** The median milliseconds per message, as the engine spends them: cache look-up and match. */
function timeMatching(
  cache: WorkflowTriggersCache,
  subject: WorkflowEntity,
  messages: string[],
  runs: number,
): number {
  const samples: number[] = [];
  for (let run = 0; run < WARMUP_RUNS + runs; run++) {
    for (const message of messages) {
      const started = performance.now();
      cache.for(subject).match(message);
      if (run >= WARMUP_RUNS) {
        samples.push(performance.now() - started);
      }
    }
  }
  return summarize(samples).p50;
}

/**
 * The reply engine's trigger matching, in this process: messages of the longest length allowed
 * against the largest workflow, and the same messages against a one-rule workflow as the
 * baseline. Matching should cost about the same for both: it follows the message, not the phrases.
 */
export async function ruleMatching(sizes: Sizes): Promise<ScenarioLine> {
  const next = random(12);
  const largest = largestWorkflow(next);
  const messages = {
    words: text(next, LIMITS.message),
    punctuation: text(next, LIMITS.message, [' ', '!', ', ', '?!', '...', ' (', ') ']),
    phrases: largest.rules
      .map((rule) => rule.trigger)
      .join(' ')
      .slice(0, LIMITS.message),
  };
  const cache = new WorkflowTriggersCache();
  const compileStarted = performance.now();
  cache.for(largest);
  const compileMs = performance.now() - compileStarted;
  const perKind = Object.fromEntries(
    Object.entries(messages).map(([kind, message]) => [
      kind,
      {
        largest: timeMatching(cache, largest, [message], sizes.matchRuns),
        oneRule: timeMatching(cache, ONE_RULE, [message], sizes.matchRuns),
      },
    ]),
  );
  const worst = Object.values(perKind).reduce((a, b) => (b.largest > a.largest ? b : a));
  progress(`rule-matching: ${JSON.stringify(perKind)}`);
  return scenarioLine(
    'rule-matching',
    {
      mode: sizes.mode,
      p50_ms: round(worst.largest, 3),
      match_ms_per_message: round(worst.largest, 3),
      one_rule_ms_per_message: round(worst.oneRule, 3),
      ratio_vs_one_rule: ratio(worst.largest, worst.oneRule),
      ms_per_message_by_text: Object.fromEntries(
        Object.entries(perKind).map(([kind, { largest: ms }]) => [kind, round(ms, 3)]),
      ),
      compile_ms: round(compileMs, 1),
      phrases: LIMITS.triggerPhrases * 2,
      message_chars: LIMITS.message,
      runs: sizes.matchRuns,
      note:
        `${LIMITS.array} rules and ${LIMITS.array} flows, ${LIMITS.triggerPhrases} phrases each ` +
        `side, ${PHRASE_CHARS} characters each; ${LIMITS.message}-character messages ` +
        `(words, punctuation, the phrases themselves), median of ${sizes.matchRuns} runs; ` +
        `the worst text against the same text on a one-rule workflow`,
    },
    TARGETS['rule-matching'],
  );
}
