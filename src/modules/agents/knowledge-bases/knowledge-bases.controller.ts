import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors } from '@/common/http/api-docs.decorators';
import { ParseIdPipe } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { ResponseMessage } from '@/common/http/response-message.decorator';
import { ApiIdempotencyKey } from '@/common/idempotency/idempotency-key.decorator';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { RequireScopes } from '@/modules/auth/require-scopes.decorator';
import { KnowledgeBaseCreateDto, KnowledgeBaseUpdateDto } from './dto/knowledge-base.dto';
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
  @RequireScopes('agents:read')
  @ResponseMessage('Knowledge bases retrieved successfully')
  @ApiOperation({ summary: "The agent's knowledge bases" })
  @ApiEnvelope(KnowledgeBaseResponseDto, { array: true })
  @ApiErrors(404)
  async list(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
  ): Promise<KnowledgeBaseResponseDto[]> {
    return (await this.knowledgeBases.list(caller.teamId, agentId)).map(toKnowledgeBaseResponse);
  }

  @Post()
  @RequireScopes('agents:write')
  @ResponseMessage('Knowledge base created successfully')
  @ApiOperation({ summary: 'Add a text or URL knowledge base' })
  @ApiIdempotencyKey()
  @ApiEnvelope(KnowledgeBaseResponseDto, { status: 201 })
  @ApiErrors(400, 404, 409, 422)
  async create(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Body() body: KnowledgeBaseCreateDto,
  ): Promise<KnowledgeBaseResponseDto> {
    return toKnowledgeBaseResponse(await this.knowledgeBases.create(caller.teamId, agentId, body));
  }

  @Get(':kbId')
  @RequireScopes('agents:read')
  @ResponseMessage('Knowledge base retrieved successfully')
  @ApiOperation({ summary: 'One knowledge base' })
  @ApiEnvelope(KnowledgeBaseResponseDto)
  @ApiErrors(404)
  async get(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('kbId', ParseIdPipe) kbId: string,
  ): Promise<KnowledgeBaseResponseDto> {
    return toKnowledgeBaseResponse(await this.knowledgeBases.get(caller.teamId, agentId, kbId));
  }

  @Patch(':kbId')
  @RequireScopes('agents:write')
  @ResponseMessage('Knowledge base updated successfully')
  @ApiOperation({ summary: 'Change a knowledge base (its type stays)' })
  @ApiIdempotencyKey()
  @ApiEnvelope(KnowledgeBaseResponseDto)
  @ApiErrors(400, 404, 409, 422)
  async update(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('kbId', ParseIdPipe) kbId: string,
    @Body() body: KnowledgeBaseUpdateDto,
  ): Promise<KnowledgeBaseResponseDto> {
    return toKnowledgeBaseResponse(
      await this.knowledgeBases.update(caller.teamId, agentId, kbId, body),
    );
  }

  @Delete(':kbId')
  @RequireScopes('agents:write')
  @ResponseMessage('Knowledge base deleted successfully')
  @ApiOperation({ summary: 'Delete a knowledge base' })
  @ApiIdempotencyKey()
  @ApiEnvelope(null)
  @ApiErrors(400, 404, 409, 422)
  async delete(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('kbId', ParseIdPipe) kbId: string,
  ): Promise<null> {
    await this.knowledgeBases.delete(caller.teamId, agentId, kbId);
    return null;
  }
}
