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

export const MAX_KNOWLEDGE_BASES_PER_AGENT = 200;
const NOT_FOUND = 'Knowledge base not found';

@Injectable()
export class KnowledgeBasesService {
  constructor(
    private readonly db: Database,
    private readonly agents: AgentsService,
    private readonly knowledgeBases: KnowledgeBasesRepository,
  ) {}

  async list(teamId: string, agentId: string): Promise<KnowledgeBaseEntity[]> {
    await this.agents.requireOwned(teamId, agentId);
    return this.knowledgeBases.listForAgent(teamId, agentId);
  }

  /** For the agent's profile, whose caller has checked the agent already. */
  async summaries(teamId: string, agentId: string): Promise<KnowledgeBaseSummaryDto[]> {
    return (await this.knowledgeBases.listForAgent(teamId, agentId)).map(toKnowledgeBaseSummary);
  }

  /** A stamp of the agent's knowledge: when it changes, `passagesFor` answers differently. */
  passagesVersion(teamId: string, agentId: string): Promise<string> {
    return this.knowledgeBases.passagesVersion(teamId, agentId);
  }

  /** The passages of the agent's text knowledge bases, in a stable order. */
  passagesFor(teamId: string, agentId: string): Promise<string[]> {
    return this.knowledgeBases.passages(teamId, agentId);
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
      await this.knowledgeBases.save(kb);
    });
    return kb;
  }

  async update(
    teamId: string,
    agentId: string,
    id: string,
    input: KnowledgeBaseUpdateDto,
  ): Promise<KnowledgeBaseEntity> {
    const kb = await this.get(teamId, agentId, id);
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
    const updated: KnowledgeBaseEntity = {
      ...kb,
      name: input.name ?? kb.name,
      description: input.description === undefined ? kb.description : input.description,
      url: input.url ?? kb.url,
      content: input.content ?? kb.content,
      updatedAt: new Date(),
    };
    await this.knowledgeBases.save(updated);
    return updated;
  }

  async delete(teamId: string, agentId: string, id: string): Promise<void> {
    await this.agents.requireOwned(teamId, agentId);
    if (!(await this.knowledgeBases.delete(teamId, agentId, id))) {
      throw Errors.notFound(NOT_FOUND);
    }
  }
}
