import { WorkflowEntity, WorkflowRule } from '@/modules/workflows/entities/workflow.entity';
import { triggerPhrases } from '@/modules/workflows/trigger-phrases';
import { PhraseMatcher } from './phrase-matcher';

const WEIGHTS = { high: 3, medium: 2, low: 1 } as const;

/**
 * A workflow's rule triggers and flow keywords, compiled into one matcher each, so that a
 * message is read once whatever the number of phrases.
 */
export class WorkflowTriggers {
  private readonly rules: PhraseMatcher;
  /** The enabled rule each phrase comes from, in the workflow's order. */
  private readonly ruleOfPhrase: WorkflowRule[] = [];
  private readonly keywords: PhraseMatcher;
  /** The flow (its index) and the weight of each keyword. */
  private readonly keywordOwners: Array<{ flow: number; weight: number }> = [];

  constructor({ rules, flows }: Pick<WorkflowEntity, 'rules' | 'flows'>) {
    const rulePhrases: string[] = [];
    for (const rule of rules.filter((candidate) => candidate.enabled)) {
      for (const phrase of triggerPhrases(rule.trigger)) {
        rulePhrases.push(phrase);
        this.ruleOfPhrase.push(rule);
      }
    }
    this.rules = new PhraseMatcher(rulePhrases);
    const keywords: string[] = [];
    flows.forEach((flow, index) => {
      for (const keyword of flow.is_active ? flow.trigger_keywords : []) {
        keywords.push(keyword.keyword);
        this.keywordOwners.push({ flow: index, weight: WEIGHTS[keyword.weight ?? 'medium'] });
      }
    });
    this.keywords = new PhraseMatcher(keywords);
  }

  /** The number of matcher states, a measure of the memory held. */
  get size(): number {
    return this.rules.size + this.keywords.size;
  }

  /** The first enabled rule with a trigger phrase found in `text`. */
  firstRule(text: string): WorkflowRule | undefined {
    const [first] = this.rules.find(text);
    return first === undefined ? undefined : this.ruleOfPhrase[first];
  }

  /** The score of each active flow with a keyword in `text`: the weights of those found. */
  flowScores(text: string): Map<number, number> {
    const scores = new Map<number, number>();
    for (const keyword of this.keywords.find(text)) {
      const { flow, weight } = this.keywordOwners[keyword];
      scores.set(flow, (scores.get(flow) ?? 0) + weight);
    }
    return scores;
  }
}
