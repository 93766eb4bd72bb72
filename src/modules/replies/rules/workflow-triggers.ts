import type { WorkflowEntity, WorkflowRule } from '@/modules/workflows/entities/workflow.entity';
import { isActiveFlow, triggerPhrases } from '@/modules/workflows/workflows.service';
import { PhraseMatcher } from './phrase-matcher';

const WEIGHTS = { high: 3, medium: 2, low: 1 } as const;

export interface TriggerMatch {
  /** The first enabled rule with a trigger phrase in the message. */
  rule: WorkflowRule | undefined;
  /** Each active flow (by index) with keywords in the message: the sum of their weights. */
  flowScores: Map<number, number>;
}

/**
 * A workflow's rule trigger phrases and flow keywords compiled into one matcher, so that a
 * message is read once whatever the number of phrases.
 */
export class WorkflowTriggers {
  private readonly matcher: PhraseMatcher;
  /** The enabled rule of each of the first phrases, in the workflow's order. */
  private readonly ruleOfPhrase: WorkflowRule[] = [];
  /** The flow and the weight of each of the phrases after those: the keywords. */
  private readonly keywordOwners: Array<{ flow: number; weight: number }> = [];

  constructor({ rules, flows }: Pick<WorkflowEntity, 'rules' | 'flows'>) {
    const phrases: string[] = [];
    for (const rule of rules.filter((candidate) => candidate.enabled)) {
      for (const phrase of triggerPhrases(rule.trigger)) {
        phrases.push(phrase);
        this.ruleOfPhrase.push(rule);
      }
    }
    flows.forEach((flow, index) => {
      for (const keyword of isActiveFlow(flow) ? flow.trigger_keywords : []) {
        phrases.push(keyword.keyword);
        this.keywordOwners.push({ flow: index, weight: WEIGHTS[keyword.weight ?? 'medium'] });
      }
    });
    this.matcher = new PhraseMatcher(phrases);
  }

  /** The number of matcher states, a measure of the memory held. */
  get size(): number {
    return this.matcher.size;
  }

  match(text: string): TriggerMatch {
    const found = this.matcher.find(text);
    const rules = this.ruleOfPhrase.length;
    const flowScores = new Map<number, number>();
    for (const phrase of found) {
      if (phrase >= rules) {
        const { flow, weight } = this.keywordOwners[phrase - rules];
        flowScores.set(flow, (flowScores.get(flow) ?? 0) + weight);
      }
    }
    // Found phrases come in ascending order, and rule phrases in the order of the rules.
    const rule = found[0] < rules ? this.ruleOfPhrase[found[0]] : undefined;
    return { rule, flowScores };
  }
}
