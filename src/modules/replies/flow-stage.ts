import type { FlowState } from '@/modules/conversations/entities/conversation.entity';
import type { FlowStep, WorkflowFlow } from '@/modules/workflows/entities/workflow.entity';
import { isActiveFlow } from '@/modules/workflows/workflows.service';
import { handoffReply } from './handoff-line';
import { KnowledgeSearch } from './knowledge-search';
import { fillPlaceholders, Reply } from './reply-engine';
import { afterRun, Turn, TurnTools } from './reply-turn';
import { collectedAnswer, collectKey, nextStep } from './rules/flow-steps';
import { isQuestion, validAnswer } from './rules/step-answers';

/**
 * The flows' part of a reply: the flow in progress goes on with the customer's answer (checked by
 * the step's `validate`), or the message starts the flow it scores best for; a step asks and
 * collects, says its content, runs its action, or hands off (`escalate`).
 */
export class FlowStage {
  constructor(
    private readonly knowledge: KnowledgeSearch,
    private readonly tools: TurnTools,
  ) {}

  async continueFlow(turn: Turn, flows: WorkflowFlow[]): Promise<Reply | null> {
    const state = turn.context.conversation.flowState;
    const flow =
      state && flows.find((candidate) => candidate.name === state.flow && isActiveFlow(candidate));
    if (!state || !flow) {
      return null;
    }
    const asked = flow.conversation_steps[state.step];
    if (asked?.type === 'collect') {
      const text = turn.context.message.message;
      const answer = asked.validate ? validAnswer(asked.validate, text) : collectedAnswer(text);
      // A step with no question of its own cannot ask again: it keeps the answer as it came.
      if (answer === null && asked.content?.trim()) {
        return this.askAgain(turn, state, asked);
      }
      turn.collected[collectKey(asked, state.step)] = answer ?? collectedAnswer(text);
      turn.collectedChanged = true;
    }
    const step = nextStep(flow, state.step);
    return step === -1 ? null : this.runStep(turn, flow, step);
  }

  /**
   * An answer the step's `validate` refused: a question of the customer's own is answered first
   * (the model or the knowledge; nothing found, nothing said), then the step asks again.
   */
  private async askAgain(turn: Turn, state: FlowState, step: FlowStep): Promise<Reply> {
    const { agent, workflow, message } = turn.context;
    const question = fillPlaceholders(step.content ?? '', agent, turn.collected).trim();
    let aside: string | null = null;
    if (isQuestion(message.message)) {
      const byModel = await this.tools.fromModel(turn, { flowState: null });
      if (byModel?.handoff) {
        return byModel;
      }
      aside =
        byModel?.text ??
        (await this.knowledge.bestAnswer({ agent, workflow }, message.message))?.text ??
        null;
    }
    return this.tools.finish(turn, {
      text: [aside, question].filter(Boolean).join('\n\n'),
      needsAttention: false,
      flowState: state,
      source: 'flow',
    });
  }

  async startFlow(
    turn: Turn,
    flows: WorkflowFlow[],
    scores: Map<number, number>,
  ): Promise<Reply | null> {
    let best: { flow: WorkflowFlow; score: number } | null = null;
    for (const [index, flow] of flows.entries()) {
      if (!isActiveFlow(flow) || nextStep(flow, -1) === -1) {
        continue;
      }
      const score = scores.get(index) ?? 0;
      const better =
        score > 0 &&
        (!best ||
          score > best.score ||
          (score === best.score && (flow.priority ?? 0) > (best.flow.priority ?? 0)));
      if (better) {
        best = { flow, score };
      }
    }
    return best
      ? this.runStep(turn, best.flow, nextStep(best.flow, -1), turn.context.message.message)
      : null;
  }

  /**
   * The flow's step at `index`, or the next that does something when its action cannot run. A
   * step whose action is `escalate` hands off (the flow's name is the reason) and ends the flow.
   * A `collect` step is skipped when its answer is known: kept from earlier, or, with `validate`,
   * found in the message that started the flow (`opening`: "where is my order KK-1042?").
   */
  private async runStep(
    turn: Turn,
    flow: WorkflowFlow,
    index: number,
    opening?: string,
  ): Promise<Reply | null> {
    const { agent, workflow } = turn.context;
    for (let at = index; at !== -1; at = nextStep(flow, at)) {
      const step = flow.conversation_steps[at];
      if (step.type === 'collect' && this.knownAnswer(turn, step, at, opening)) {
        continue;
      }
      const content = step.content?.trim()
        ? fillPlaceholders(step.content, agent, turn.collected)
        : null;
      if (step.action?.trim().toLowerCase() === 'escalate') {
        const handoff = { source: 'flow' as const, reason: flow.name };
        const handedOff = handoffReply(agent, workflow, handoff);
        return this.tools.finish(turn, {
          ...handedOff,
          ...(content ? { text: content, source: 'flow' as const } : {}),
          flowState: null,
        });
      }
      const run = step.action?.trim() ? await this.tools.run(turn, step.action) : null;
      if (!run && !content) {
        // An action the agent may not run (unknown, disabled or gone): the step says nothing.
        continue;
      }
      const flowState: FlowState | null =
        step.type === 'collect' || nextStep(flow, at) !== -1 ? { flow: flow.name, step: at } : null;
      return this.tools.finish(turn, {
        text: run ? afterRun(run, content) : content!,
        needsAttention: run?.status === 'failed',
        flowState,
        source: 'flow',
      });
    }
    return null;
  }

  /** Whether a collect step's answer is at hand (taking it from `opening` when found there). */
  private knownAnswer(turn: Turn, step: FlowStep, index: number, opening?: string): boolean {
    const key = collectKey(step, index);
    const found = opening && step.validate ? validAnswer(step.validate, opening) : null;
    if (found !== null) {
      turn.collected[key] = found;
      turn.collectedChanged = true;
      return true;
    }
    return Boolean(turn.collected[key]?.trim());
  }
}
