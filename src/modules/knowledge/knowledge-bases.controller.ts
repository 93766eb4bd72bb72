import { Body, Controller, Delete, Get, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdParam } from '@/common/http/parse-id.pipe';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { AgentId } from '@/modules/agents/agent-id.decorator';
import { KnowledgeBaseCreateDto } from './dto/knowledge-base-create.dto';
import { KnowledgeBaseUpdateDto } from './dto/knowledge-base-update.dto';
import {
  KnowledgeBaseResponseDto,
  toKnowledgeBaseResponse,
} from './dto/knowledge-base-response.dto';
import { KnowledgeBasesService } from './knowledge-bases.service';

@ApiTags('knowledge bases')
@Controller('agents/:agentId/knowledge_bases')
export class KnowledgeBasesController {
  constructor(private readonly knowledgeBases: KnowledgeBasesService) {}

  @Get()
  @Endpoint({
    scope: 'agents:read',
    summary: "The agent's knowledge bases",
    message: 'Knowledge bases retrieved successfully',
    response: KnowledgeBaseResponseDto,
    shape: 'array',
  })
  async listKnowledgeBases(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
  ): Promise<KnowledgeBaseResponseDto[]> {
    return (await this.knowledgeBases.list(teamId, agentId)).map(toKnowledgeBaseResponse);
  }

  @Post()
  @Endpoint({
    scope: 'agents:write',
    summary: 'Add a text or URL knowledge base',
    message: 'Knowledge base created successfully',
    response: KnowledgeBaseResponseDto,
    status: 201,
  })
  async createKnowledgeBase(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() body: KnowledgeBaseCreateDto,
  ): Promise<KnowledgeBaseResponseDto> {
    return toKnowledgeBaseResponse(await this.knowledgeBases.create(teamId, agentId, body));
  }

  @Get(':kbId')
  @Endpoint({
    scope: 'agents:read',
    summary: 'One knowledge base',
    message: 'Knowledge base retrieved successfully',
    response: KnowledgeBaseResponseDto,
  })
  async getKnowledgeBase(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('kbId') kbId: string,
  ): Promise<KnowledgeBaseResponseDto> {
    return toKnowledgeBaseResponse(await this.knowledgeBases.get(teamId, agentId, kbId));
  }

  @Patch(':kbId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Change a knowledge base (its type stays)',
    message: 'Knowledge base updated successfully',
    response: KnowledgeBaseResponseDto,
  })
  async updateKnowledgeBase(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('kbId') kbId: string,
    @Body() body: KnowledgeBaseUpdateDto,
  ): Promise<KnowledgeBaseResponseDto> {
    return toKnowledgeBaseResponse(await this.knowledgeBases.update(teamId, agentId, kbId, body));
  }

  @Post(':kbId/refresh')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Fetch a URL knowledge base again, in the background',
    message: 'Knowledge base refresh requested',
    response: KnowledgeBaseResponseDto,
    status: 202,
    errors: [400, 404, 409, 422],
  })
  async refreshKnowledgeBase(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('kbId') kbId: string,
  ): Promise<KnowledgeBaseResponseDto> {
    return toKnowledgeBaseResponse(await this.knowledgeBases.refresh(teamId, agentId, kbId));
  }

  @Delete(':kbId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Delete a knowledge base',
    message: 'Knowledge base deleted successfully',
    response: null,
  })
  deleteKnowledgeBase(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('kbId') kbId: string,
  ): Promise<void> {
    return this.knowledgeBases.delete(teamId, agentId, kbId);
  }
}
