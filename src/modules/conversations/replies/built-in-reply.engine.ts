import { Injectable } from '@nestjs/common';
import { FlowStep, isActiveFlow, WorkflowFlow } from '@/modules/workflows/entities/workflow.entity';
import { KnowledgeSearch } from './knowledge-search';
import { fillPlaceholders, handoffReply, Reply, ReplyContext, ReplyEngine } from './reply-engine';
import { WorkflowTriggersCache } from './workflow-triggers.cache';

function isMessageStep(step: FlowStep): boolean {
  return step.type === 'message' && Boolean(step.content?.trim());
}

function nextMessageStep(flow: WorkflowFlow, after: number): number {
  return flow.conversation_steps.findIndex((step, index) => index > after && isMessageStep(step));
}

/**
 * The deterministic engine, in this order: an enabled rule whose trigger matches; the next step
 * of the flow the conversation is in; the active flow whose keywords score best; the best passage
 * of the agent's knowledge; and else a hand-off to a person.
 */
@Injectable()
export class BuiltInReplyEngine implements ReplyEngine {
  constructor(
    private readonly knowledge: KnowledgeSearch,
    private readonly triggers: WorkflowTriggersCache,
  ) {}

  async reply({ agent, workflow, conversation, message }: ReplyContext): Promise<Reply> {
    const text = message.message;
    const found = workflow ? this.triggers.for(workflow).match(text) : null;
    const rule = found?.rule;
    if (rule) {
      const escalates = rule.action?.trim().toLowerCase() === 'escalate';
      if (rule.response?.trim()) {
        return {
          text: fillPlaceholders(rule.response, agent),
          needsAttention: escalates,
          source: 'rule',
        };
      }
      if (escalates) {
        return handoffReply(agent);
      }
    }
    const flows = workflow?.flows ?? [];
    const continued = this.continueFlow(flows, conversation.flowState, agent);
    if (continued) {
      return continued;
    }
    const started = this.startFlow(flows, found?.flowScores ?? new Map<number, number>(), agent);
    if (started) {
      return started;
    }
    const passage = await this.knowledge.bestAnswer({ agent, workflow }, text);
    if (passage) {
      return { text: passage.text, needsAttention: false, flowState: null, source: 'knowledge' };
    }
    return { ...handoffReply(agent), flowState: null };
  }

  private continueFlow(
    flows: WorkflowFlow[],
    state: ReplyContext['conversation']['flowState'],
    agent: ReplyContext['agent'],
  ): Reply | null {
    const flow =
      state && flows.find((candidate) => candidate.name === state.flow && isActiveFlow(candidate));
    if (!state || !flow) {
      return null;
    }
    const step = nextMessageStep(flow, state.step);
    if (step === -1) {
      return null;
    }
    return {
      text: fillPlaceholders(flow.conversation_steps[step].content!, agent),
      needsAttention: false,
      flowState: nextMessageStep(flow, step) === -1 ? null : { flow: flow.name, step },
      source: 'flow',
    };
  }

  private startFlow(
    flows: WorkflowFlow[],
    scores: Map<number, number>,
    agent: ReplyContext['agent'],
  ): Reply | null {
    let best: { flow: WorkflowFlow; score: number } | null = null;
    for (const [index, flow] of flows.entries()) {
      if (!isActiveFlow(flow) || nextMessageStep(flow, -1) === -1) {
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
    if (!best) {
      return null;
    }
    const step = nextMessageStep(best.flow, -1);
    return {
      text: fillPlaceholders(best.flow.conversation_steps[step].content!, agent),
      needsAttention: false,
      flowState: nextMessageStep(best.flow, step) === -1 ? null : { flow: best.flow.name, step },
      source: 'flow',
    };
  }
}
