import { Injectable, Logger } from '@nestjs/common';
import { ActionRunner } from './action-runs/action-runner.service';
import { ActionRunEntity } from './action-runs/entities/action-run.entity';
import { ExecutableAction } from '@/modules/integrations/integrations.public';
import type { WorkflowRule } from '@/modules/workflows/entities/workflow.entity';
import { customerLineFor, toolResultFor } from './action-runs/action-lines';
import { KnowledgeSearch } from './knowledge-search';
import { ModelReplier, originOf, recordRun } from './model/model-replier';
import { handoffReply } from './handoff-line';
import { fillPlaceholders, Reply, ReplyContext, ReplyEngine, ruleHandoff } from './reply-engine';
import { asksForPerson, CUSTOMER_HANDOFF_REASON } from './rules/asks-for-person';
import { restAfterTrigger } from './rules/message-rest';
import { WorkflowTriggersCache } from './rules/workflow-triggers.cache';
import { FlowStage } from './flow-stage';
import { findAction, Turn, TurnTools } from './reply-turn';

/**
 * A reply, stage by stage, each answering or passing on: an enabled rule whose trigger matches
 * (escalating, or running the action it names); the flow in progress or the one the message
 * starts (a step may ask and collect the answer, or run an action); the knowledge, through the
 * language model when one is configured (with the agent's enabled actions as tools) or else the
 * best passage; and else a hand-off to a person. A model never replaces the rules and flows.
 */
@Injectable()
export class ReplyPipeline implements ReplyEngine, TurnTools {
  private readonly logger = new Logger(ReplyPipeline.name);
  private readonly flows: FlowStage;

  constructor(
    private readonly knowledge: KnowledgeSearch,
    private readonly triggers: WorkflowTriggersCache,
    private readonly runner: ActionRunner,
    private readonly model: ModelReplier,
  ) {
    this.flows = new FlowStage(knowledge, this);
  }

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
      (await this.flows.continueFlow(turn, flows)) ??
      (await this.flows.startFlow(turn, flows, flowScores));
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

  finish(turn: Turn, reply: Reply): Reply {
    return {
      ...reply,
      ...(turn.log.runs.length > 0 ? { runs: turn.log.runs } : {}),
      needsAttention:
        reply.needsAttention || turn.log.runs.some((run) => run.status === 'pending_approval'),
      ...(turn.collectedChanged ? { context: turn.collected } : {}),
    };
  }

  async run(turn: Turn, name: string): Promise<ActionRunEntity | null> {
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
  async fromModel(
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
