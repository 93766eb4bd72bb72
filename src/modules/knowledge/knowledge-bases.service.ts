import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { AgentsService } from '@/modules/agents/agents.service';
import { KnowledgeBaseCreateDto } from './dto/knowledge-base-create.dto';
import { KnowledgeBaseSummaryDto, toKnowledgeBaseSummary } from './dto/knowledge-base-response.dto';
import { KnowledgeBaseUpdateDto } from './dto/knowledge-base-update.dto';
import { KnowledgeBaseEntity } from './entities/knowledge-base.entity';
import { KnowledgeBasesRepository } from './knowledge-bases.repository';
import { KnowledgeFetchWorker } from './fetch/knowledge-fetch.worker';
import { KnowledgeQuota } from './knowledge-quota';

export const MAX_KNOWLEDGE_BASES_PER_AGENT = 200;

/** An item with no error and no fetch under way (a new token takes over any running one). */
const AWAITING_NOTHING = {
  error: null,
  leaseUntil: null,
  fetchToken: null,
  fetchAttempts: 0,
} as const;
const NOT_FOUND = 'Knowledge base not found';

@Injectable()
export class KnowledgeBasesService {
  constructor(
    private readonly db: Database,
    private readonly agents: AgentsService,
    private readonly knowledgeBases: KnowledgeBasesRepository,
    private readonly fetcher: KnowledgeFetchWorker,
    private readonly quota: KnowledgeQuota,
  ) {}

  async list(teamId: string, agentId: string): Promise<KnowledgeBaseEntity[]> {
    await this.agents.requireOwned(teamId, agentId);
    return this.knowledgeBases.listForAgent(teamId, agentId);
  }

  /** For the agent's profile, whose caller has checked the agent already. */
  async summaries(teamId: string, agentId: string): Promise<KnowledgeBaseSummaryDto[]> {
    return (await this.knowledgeBases.summariesForAgent(teamId, agentId)).map(
      toKnowledgeBaseSummary,
    );
  }

  async get(teamId: string, agentId: string, id: string): Promise<KnowledgeBaseEntity> {
    await this.agents.requireOwned(teamId, agentId);
    const kb = await this.knowledgeBases.findOwned(teamId, agentId, id);
    if (!kb) {
      throw Errors.notFound(NOT_FOUND);
    }
    return kb;
  }

  async create(
    teamId: string,
    agentId: string,
    input: KnowledgeBaseCreateDto,
  ): Promise<KnowledgeBaseEntity> {
    await this.agents.requireOwned(teamId, agentId);
    const now = new Date();
    const kb: KnowledgeBaseEntity = {
      id: newId(),
      teamId,
      agentId,
      type: input.type,
      name: input.name,
      description: input.description ?? null,
      url: input.type === 'url' ? input.url! : null,
      content: input.type === 'text' ? input.content! : null,
      ...AWAITING_NOTHING,
      status: input.type === 'text' ? 'ready' : 'pending',
      fetchedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.db.transaction(async () => {
      await this.db.lockRow('agents', agentId);
      if (
        (await this.knowledgeBases.countForAgent(teamId, agentId)) >= MAX_KNOWLEDGE_BASES_PER_AGENT
      ) {
        throw Errors.conflict(
          `An agent can have at most ${MAX_KNOWLEDGE_BASES_PER_AGENT} knowledge bases`,
        );
      }
      await this.quota.assertRoom(teamId, null, kb.content);
      await this.knowledgeBases.insert(kb);
      this.scheduleFetch(kb);
    });
    return kb;
  }

  async update(
    teamId: string,
    agentId: string,
    id: string,
    input: KnowledgeBaseUpdateDto,
  ): Promise<KnowledgeBaseEntity> {
    return this.db.transaction(async () => {
      if (input.content !== undefined) {
        // The team before the item, as a fetch settling takes them: the quota needs the team.
        await this.db.lockRow('teams', teamId);
      }
      const kb = await this.lockedForChange(teamId, agentId, id);
      return this.applyUpdate(kb, input);
    });
  }

  /**
   * The item, its row locked until the caller's transaction ends: a change writes the whole row,
   * and would otherwise put back what a fetch settling meanwhile wrote (status, content).
   */
  private async lockedForChange(
    teamId: string,
    agentId: string,
    id: string,
  ): Promise<KnowledgeBaseEntity> {
    await this.db.lockRow('knowledge_bases', id);
    return this.get(teamId, agentId, id);
  }

  private async applyUpdate(
    kb: KnowledgeBaseEntity,
    input: KnowledgeBaseUpdateDto,
  ): Promise<KnowledgeBaseEntity> {
    const misplaced =
      kb.type === 'text'
        ? input.url !== undefined
          ? 'url'
          : null
        : input.content !== undefined
          ? 'content'
          : null;
    if (misplaced) {
      throw Errors.validation([
        `${misplaced}: is only allowed when type is ${misplaced === 'url' ? 'url' : 'text'}`,
      ]);
    }
    if (input.content !== undefined) {
      await this.quota.assertRoom(kb.teamId, kb.id, input.content);
    }
    const urlChanged = input.url !== undefined && input.url !== kb.url;
    const updated: KnowledgeBaseEntity = {
      ...kb,
      name: input.name ?? kb.name,
      description: input.description === undefined ? kb.description : input.description,
      url: input.url ?? kb.url,
      content: urlChanged ? null : (input.content ?? kb.content),
      ...(urlChanged ? { ...AWAITING_NOTHING, status: 'pending' as const } : {}),
      updatedAt: new Date(),
    };
    await this.knowledgeBases.update(updated, urlChanged || input.content !== undefined);
    this.scheduleFetch(updated);
    return updated;
  }

  /** Asks for the page of a URL item again; its current text keeps answering meanwhile. */
  async refresh(teamId: string, agentId: string, id: string): Promise<KnowledgeBaseEntity> {
    return this.db.transaction(async () => {
      const kb = await this.lockedForChange(teamId, agentId, id);
      if (kb.type !== 'url') {
        throw Errors.conflict('Only a url knowledge base can be refreshed');
      }
      const updated: KnowledgeBaseEntity = { ...kb, ...AWAITING_NOTHING, status: 'pending' };
      await this.knowledgeBases.update(updated, false);
      this.scheduleFetch(updated);
      return updated;
    });
  }

  private scheduleFetch(kb: KnowledgeBaseEntity): void {
    if (kb.status === 'pending') {
      this.db.afterCommit(() => this.fetcher.schedule({ id: kb.id, teamId: kb.teamId }));
    }
  }

  async delete(teamId: string, agentId: string, id: string): Promise<void> {
    await this.agents.requireOwned(teamId, agentId);
    if (!(await this.knowledgeBases.delete(teamId, agentId, id))) {
      throw Errors.notFound(NOT_FOUND);
    }
  }
}
