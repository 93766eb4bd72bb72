import { Inject, Injectable, Logger } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { canonicalId, newId } from '@/common/ids';
import { Principal } from '@/common/http/principal';
import { Page } from '@/common/pagination/page';
import { CLUSTER_EVENTS, ClusterEvents } from '@/common/state/ports';
import { definedFields } from '@/common/validation/defined-fields';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { isUniqueViolation } from '@/database/errors';
import {
  toWorkflowResponse,
  WorkflowResponseDto,
} from '@/modules/workflows/dto/workflow-response.dto';
import { WebhookEvents } from '@/modules/webhooks/webhook-events.service';
import { WorkflowsService } from '@/modules/workflows/workflows.service';
import { canTransition } from './agent-status';
import { AgentsRepository } from './agents.repository';
import { ChannelsRepository } from './channels/channels.repository';
import { newTestChannelCode, testChannelCodeIn } from './deployment/test-channel-code';
import { AgentCreateDto } from './dto/agent-create.dto';
import { AgentListQueryDto } from './dto/agent-list-query.dto';
import { AgentLiveStatusDto } from './dto/agent-live-status-update.dto';
import { toAgentResponse } from './dto/agent-response.dto';
import { AgentUpdateDto } from './dto/agent-update.dto';
import { ChannelSummary } from './entities/agent-channel.entity';
import { AgentEntity } from './entities/agent.entity';

const NOT_FOUND = 'Agent not found';
/** Told to every instance once an agent's deletion has committed; the payload is its id. */
export const AGENT_DELETED = 'agent-deleted';
const CODE_ATTEMPTS = 5;

type AgentInput = Partial<AgentCreateDto>;

/** The new agent, and the workflow it runs on as the caller sees it. */
export interface CreatedAgent {
  agent: AgentEntity;
  workflow: WorkflowResponseDto;
}

function agentChanges(input: AgentInput): Partial<AgentEntity> {
  return definedFields<AgentEntity>({
    workflowId: input.workflow_id,
    name: input.name,
    description: input.description,
    language: input.language,
    persona: input.persona,
    timezone: input.timezone,
    logo: input.logo,
    businessName: input.business_name,
    businessAddress: input.business_address,
    businessEmail: input.business_email,
    businessDescription: input.business_description,
    escalationEmail: input.escalation_email,
    handoffPausesAi: input.handoff_pauses_ai,
    operatorReplyPausesAi: input.operator_reply_pauses_ai,
  });
}

/** Whose figures a read counts: the team's, narrowed to some agents (null: all). */
export interface AgentScope {
  teamId: string;
  agentIds: readonly string[] | null;
}

@Injectable()
export class AgentsService {
  private readonly logger = new Logger(AgentsService.name);
  private readonly quota: number;

  constructor(
    private readonly db: Database,
    private readonly agents: AgentsRepository,
    private readonly channels: ChannelsRepository,
    private readonly workflows: WorkflowsService,
    @Inject(CLUSTER_EVENTS) private readonly events: ClusterEvents,
    private readonly webhooks: WebhookEvents,
    config: AppConfig,
  ) {
    this.quota = config.agents.quota;
  }

  /**
   * Whose figures `caller` reads (reports, usage): the team's, narrowed to a limited key's agents,
   * or the one agent asked for (404 when it is not the caller's).
   */
  async scopeFor(caller: Principal, agentId: string | undefined): Promise<AgentScope> {
    if (agentId === undefined) {
      return { teamId: caller.teamId, agentIds: caller.agentIds };
    }
    const id = String(canonicalId(agentId));
    if (caller.agentIds && !caller.agentIds.includes(id)) {
      throw Errors.notFound(NOT_FOUND);
    }
    await this.requireOwned(caller.teamId, id);
    return { teamId: caller.teamId, agentIds: [id] };
  }

  /** The team's agent, or 404: another team's agent does not exist for this caller. */
  async requireOwned(teamId: string, id: string): Promise<AgentEntity> {
    const agent = await this.agents.findOwned(teamId, id);
    if (!agent) {
      throw Errors.notFound(NOT_FOUND);
    }
    return agent;
  }

  /** The agent a test code (docs/api.md §4d) names, in any team; null for any other text. */
  findByTestChannelCode(text: string): Promise<AgentEntity | null> {
    const code = testChannelCodeIn(text);
    return code ? this.agents.findByTestChannelCode(code) : Promise.resolve(null);
  }

  /** The team's agents, or only `agentIds` of them (a key limited to some agents). */
  list(
    teamId: string,
    query: AgentListQueryDto,
    agentIds: readonly string[] | null = null,
  ): Promise<Page<AgentEntity>> {
    return this.agents.list(teamId, query, agentIds);
  }

  async create(teamId: string, input: AgentCreateDto): Promise<CreatedAgent> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.insertWithinQuota(teamId, input);
      } catch (error) {
        // A test-code collision is astronomically rare; a fresh code settles it.
        if (!isUniqueViolation(error) || attempt >= CODE_ATTEMPTS) {
          throw error;
        }
      }
    }
  }

  async update(teamId: string, id: string, input: AgentUpdateDto): Promise<AgentEntity> {
    await this.requireOwned(teamId, id);
    await this.db.transaction(async () => {
      if (input.workflow_id !== undefined) {
        input.workflow_id = (await this.workflows.holdForAgent(teamId, input.workflow_id)).id;
      }
      await this.agents.update(teamId, id, { ...agentChanges(input), updatedAt: new Date() });
    });
    return this.requireOwned(teamId, id);
  }

  async delete(teamId: string, id: string): Promise<void> {
    if (!(await this.agents.delete(teamId, id))) {
      throw Errors.notFound(NOT_FOUND);
    }
    this.db.afterCommit(() => {
      this.events.emit(AGENT_DELETED, id).catch((error: unknown) => {
        this.logger.warn({ err: error, agent_id: id }, 'Could not announce the agent deletion');
      });
    });
  }

  /**
   * Judged under a lock on the agent, so that concurrent changes each see the state the previous
   * one left: a second identical request is then a no-op rather than a conflict.
   */
  setLiveStatus(teamId: string, id: string, input: AgentLiveStatusDto): Promise<AgentEntity> {
    return this.db.transaction(async () => {
      await this.db.lockRow('agents', id);
      const agent = await this.requireOwned(teamId, id);
      if (agent.status === input.status) {
        return agent;
      }
      if (!canTransition(agent.status, input.status)) {
        throw Errors.conflict(`An agent cannot go from ${agent.status} to ${input.status}`);
      }
      await this.agents.update(teamId, id, {
        status: input.status,
        statusReason: input.status_reason ?? null,
        updatedAt: new Date(),
      });
      const changed = await this.requireOwned(teamId, id);
      await this.webhooks.emit(teamId, 'agent.status_changed', toAgentResponse(changed));
      return changed;
    });
  }

  async channelsOf(teamId: string, id: string): Promise<ChannelSummary[]> {
    await this.requireOwned(teamId, id);
    return this.channels.listForAgent(teamId, id);
  }

  /** The channels of an agent the caller has already found to be the team's. */
  channelSummaries(teamId: string, id: string): Promise<ChannelSummary[]> {
    return this.channels.listForAgent(teamId, id);
  }

  /** The flows of the agent's workflow (which may be another team's public one). */
  async flowsOf(teamId: string, id: string): Promise<WorkflowResponseDto['flows']> {
    const agent = await this.requireOwned(teamId, id);
    return (await this.workflows.findForAgent(teamId, agent.workflowId))?.flows ?? [];
  }

  private insertWithinQuota(teamId: string, input: AgentCreateDto): Promise<CreatedAgent> {
    return this.db.transaction(async () => {
      // The workflow first, then the team: an owner taking the workflow away holds it while it
      // adds copies under this team, which waits for the team's lock.
      const workflow = await this.workflows.holdForAgent(teamId, input.workflow_id);
      await this.db.lockRow('teams', teamId);
      if ((await this.agents.countForTeam(teamId)) >= this.quota) {
        throw Errors.agentLimitReached(`The team has reached its quota of ${this.quota} agents`);
      }
      const now = new Date();
      const agent: AgentEntity = {
        id: newId(),
        teamId,
        name: input.name,
        description: input.description,
        language: null,
        persona: null,
        timezone: null,
        logo: null,
        businessName: null,
        businessAddress: null,
        businessEmail: null,
        businessDescription: null,
        escalationEmail: null,
        handoffPausesAi: true,
        operatorReplyPausesAi: true,
        ...agentChanges(input),
        workflowId: workflow.id,
        testChannelCode: newTestChannelCode(),
        status: 'development',
        statusReason: null,
        createdAt: now,
        updatedAt: now,
      };
      await this.agents.insert(agent);
      await this.channels.createDefaults(teamId, agent.id, now);
      return { agent, workflow: toWorkflowResponse(workflow, teamId) };
    });
  }
}
