import { Injectable, Logger } from '@nestjs/common';
import { ActionRunner } from './action-runs/action-runner.service';
import { ActionRunEntity } from './action-runs/entities/action-run.entity';
import { ExecutableAction } from '@/modules/integrations/integrations.public';
import type {
  FlowStep,
  WorkflowFlow,
  WorkflowRule,
} from '@/modules/workflows/entities/workflow.entity';
import { isActiveFlow } from '@/modules/workflows/workflows.service';
import type { FlowState } from '@/modules/conversations/entities/conversation.entity';
import { customerLineFor, toolResultFor } from './action-runs/action-lines';
import { collectedAnswer, collectKey, nextStep } from './rules/flow-steps';
import { KnowledgeSearch } from './knowledge-search';
import { ModelReplier, originOf, recordRun, RunLog } from './model/model-replier';
import { handoffReply } from './handoff-line';
import { fillPlaceholders, Reply, ReplyContext, ReplyEngine, ruleHandoff } from './reply-engine';
import { asksForPerson, CUSTOMER_HANDOFF_REASON } from './rules/asks-for-person';
import { restAfterTrigger } from './rules/message-rest';
import { isQuestion, validAnswer } from './rules/step-answers';
import { WorkflowTriggersCache } from './rules/workflow-triggers.cache';

/** What one reply works with: its runs, the agent's actions (read once), the collected answers. */
interface Turn {
  context: ReplyContext;
  log: RunLog;
  collected: Record<string, string>;
  collectedChanged: boolean;
  actions(): Promise<ExecutableAction[]>;
}

function findAction(actions: ExecutableAction[], name: string): ExecutableAction | undefined {
  const wanted = name.trim().toLowerCase();
  return (
    actions.find((target) => target.action.actionName.toLowerCase() === wanted) ??
    actions.find((target) => target.action.name.toLowerCase() === wanted)
  );
}

/** The customer's line after a run: `text` when it went well, else what happened, honestly. */
function afterRun(run: ActionRunEntity, text: string | null | undefined): string {
  return run.status === 'succeeded' && text?.trim() ? text : customerLineFor(run);
}

/**
 * A reply, stage by stage, each answering or passing on: an enabled rule whose trigger matches
 * (escalating, or running the action it names); the flow in progress or the one the message
 * starts (a step may ask and collect the answer, or run an action); the knowledge, through the
 * language model when one is configured (with the agent's enabled actions as tools) or else the
 * best passage; and else a hand-off to a person. A model never replaces the rules and flows.
 */
@Injectable()
export class ReplyPipeline implements ReplyEngine {
  private readonly logger = new Logger(ReplyPipeline.name);

  constructor(
    private readonly knowledge: KnowledgeSearch,
    private readonly triggers: WorkflowTriggersCache,
    private readonly runner: ActionRunner,
    private readonly model: ModelReplier,
  ) {}

  async reply(context: ReplyContext): Promise<Reply> {
    const turn = this.turnFor(context);
    if (context.message.action) {
      return this.afterDecision(turn, context.message.action.run_id);
    }
    const { workflow, message } = context;
    const found = workflow ? this.triggers.for(workflow).match(message.message) : null;
    const flowScores = found?.flowScores ?? new Map<number, number>();
    const byRule = found?.rule ? await this.fromRule(turn, found.rule) : null;
    if (!byRule) {
      return this.afterRules(turn, flowScores);
    }
    const rest = byRule.needsAttention
      ? null
      : restAfterTrigger(message.message, found!.rule!.trigger);
    if (!rest) {
      return byRule;
    }
    // The rule answers its part; what else the message asks goes on through the stages after it.
    const restTurn: Turn = {
      ...turn,
      context: { ...context, message: { ...message, message: rest } },
    };
    const more = await this.afterRules(restTurn, flowScores);
    return {
      ...more,
      text: `${byRule.text}\n\n${more.text}`,
      needsAttention: more.needsAttention,
      source: more.source === 'handoff' ? 'rule' : more.source,
    };
  }

  /** The stages after the rules: a customer asking for a person, the flows, the knowledge. */
  private async afterRules(turn: Turn, flowScores: Map<number, number>): Promise<Reply> {
    const { agent, workflow, message } = turn.context;
    if (asksForPerson(message.message)) {
      const handoff = { source: 'customer' as const, reason: CUSTOMER_HANDOFF_REASON };
      return this.finish(turn, { ...handoffReply(agent, workflow, handoff), flowState: null });
    }
    const flows = workflow?.flows ?? [];
    const byFlow =
      (await this.continueFlow(turn, flows)) ?? (await this.startFlow(turn, flows, flowScores));
    if (byFlow) {
      return byFlow;
    }
    return this.fromKnowledge(turn, agent);
  }

  private turnFor(context: ReplyContext): Turn {
    let actions: Promise<ExecutableAction[]> | undefined;
    let earlier: Promise<ActionRunEntity[]> | undefined;
    return {
      context,
      log: {
        runs: [],
        earlier: () => (earlier ??= this.runner.earlierRuns(originOf(context))),
      },
      collected: { ...(context.conversation.context ?? {}) },
      collectedChanged: false,
      actions: () => (actions ??= this.runner.actions(context.agent.teamId, context.agent.id)),
    };
  }

  private finish(turn: Turn, reply: Reply): Reply {
    return {
      ...reply,
      ...(turn.log.runs.length > 0 ? { runs: turn.log.runs } : {}),
      needsAttention:
        reply.needsAttention || turn.log.runs.some((run) => run.status === 'pending_approval'),
      ...(turn.collectedChanged ? { context: turn.collected } : {}),
    };
  }

  private async run(turn: Turn, name: string): Promise<ActionRunEntity | null> {
    const target = findAction(await turn.actions(), name);
    if (!target) {
      return null;
    }
    const run = await this.runner.run(
      target,
      { ...turn.collected },
      originOf(turn.context),
      await turn.log.earlier(),
    );
    recordRun(turn.log, run);
    return run;
  }

  private async fromRule(turn: Turn, rule: WorkflowRule): Promise<Reply | null> {
    const { agent, workflow } = turn.context;
    const action = rule.action?.trim();
    const escalates = action?.toLowerCase() === 'escalate';
    const response = rule.response?.trim()
      ? fillPlaceholders(rule.response, agent, turn.collected)
      : null;
    const run = action && !escalates ? await this.run(turn, action) : null;
    if (run) {
      // The rule's own words first, then what came of the action (docs/api.md §5b).
      return this.finish(turn, {
        text: response ? `${response}\n\n${customerLineFor(run)}` : customerLineFor(run),
        needsAttention: run.status === 'failed',
        source: 'rule',
      });
    }
    if (response) {
      return this.finish(turn, {
        text: response,
        needsAttention: escalates,
        ...(escalates ? { handoff: ruleHandoff(rule) } : {}),
        source: 'rule',
      });
    }
    return escalates ? this.finish(turn, handoffReply(agent, workflow, ruleHandoff(rule))) : null;
  }

  private async continueFlow(turn: Turn, flows: WorkflowFlow[]): Promise<Reply | null> {
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
      const byModel = await this.fromModel(turn, { flowState: null });
      if (byModel?.handoff) {
        return byModel;
      }
      aside =
        byModel?.text ??
        (await this.knowledge.bestAnswer({ agent, workflow }, message.message))?.text ??
        null;
    }
    return this.finish(turn, {
      text: [aside, question].filter(Boolean).join('\n\n'),
      needsAttention: false,
      flowState: state,
      source: 'flow',
    });
  }

  private async startFlow(
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
        return this.finish(turn, {
          ...handedOff,
          ...(content ? { text: content, source: 'flow' as const } : {}),
          flowState: null,
        });
      }
      const run = step.action?.trim() ? await this.run(turn, step.action) : null;
      if (!run && !content) {
        // An action the agent may not run (unknown, disabled or gone): the step says nothing.
        continue;
      }
      const flowState: FlowState | null =
        step.type === 'collect' || nextStep(flow, at) !== -1 ? { flow: flow.name, step: at } : null;
      return this.finish(turn, {
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

  private async fromKnowledge(turn: Turn, agent: ReplyContext['agent']): Promise<Reply> {
    const { workflow, message } = turn.context;
    const byModel = await this.fromModel(turn, { flowState: null });
    if (byModel) {
      return byModel;
    }
    const passage = await this.knowledge.bestAnswer({ agent, workflow }, message.message);
    if (passage) {
      return this.finish(turn, {
        text: passage.text,
        needsAttention: false,
        flowState: null,
        source: 'knowledge',
      });
    }
    return this.finish(turn, { ...handoffReply(agent, workflow), flowState: null });
  }

  /**
   * The language model's answer, or null when the team has none, has used its monthly token
   * budget, or the model failed.
   */
  private async fromModel(
    turn: Turn,
    extra: Pick<Reply, 'flowState'>,
    note?: string,
  ): Promise<Reply | null> {
    if (!(await this.model.availableFor(turn.context))) {
      return null;
    }
    try {
      const answer = await this.model.answer(turn.context, await turn.actions(), turn.log, note);
      if (answer.handoff) {
        const { agent, workflow } = turn.context;
        const handedOff = handoffReply(agent, workflow, answer.handoff);
        // The model's own words are the AI's; without any, the service's hand-off line.
        return this.finish(turn, {
          ...handedOff,
          ...(answer.text ? { text: answer.text, source: 'llm' as const } : {}),
          ...extra,
        });
      }
      return this.finish(turn, {
        text: answer.text,
        needsAttention: answer.parked,
        ...extra,
        source: 'llm',
      });
    } catch (error) {
      this.logger.warn(
        { err: error, agent_id: turn.context.agent.id, reason: (error as Error).message },
        'The language model failed; answering without it',
      );
      return null;
    }
  }

  /** The rest of a reply that waited for a decision on one of its runs. */
  private async afterDecision(turn: Turn, runId: string): Promise<Reply> {
    const { agent, workflow } = turn.context;
    const run = await this.runner.find(agent.teamId, agent.id, runId);
    if (!run) {
      return this.finish(turn, handoffReply(agent, workflow));
    }
    const byModel =
      run.status === 'rejected'
        ? null
        : await this.fromModel(
            turn,
            {},
            `A person approved the action ${run.actionName} the customer asked for, and it ran. ` +
              `Its outcome: ${toolResultFor(run)}. Tell the customer.`,
          );
    if (byModel) {
      return byModel;
    }
    return this.finish(turn, {
      text: customerLineFor(run),
      needsAttention: run.status === 'failed',
      source: 'action',
    });
  }
}
