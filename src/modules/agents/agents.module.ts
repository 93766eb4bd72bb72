import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SecretBox } from '@/common/crypto/secret-box';
import { IdempotencyModule } from '@/common/idempotency/idempotency.module';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { WorkflowsModule } from '@/modules/workflows/workflows.module';
import { ActionEntity } from './actions/action.entity';
import { ActionsController } from './actions/actions.controller';
import { ActionsRepository } from './actions/actions.repository';
import { ActionsService } from './actions/actions.service';
import { AgentProfileService } from './agent-profile.service';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { AgentChannelEntity } from './channels/agent-channel.entity';
import { ChannelsRepository } from './channels/channels.repository';
import { AgentTestCodeService } from './deployment/agent-deployment';
import { AgentEntity } from './entities/agent.entity';
import { BuiltInIntegrationsController } from './integrations/built-in/built-in-integrations.controller';
import { BuiltInIntegrationsService } from './integrations/built-in/built-in-integrations.service';
import { CustomApiController } from './integrations/custom-api/custom-api.controller';
import { CustomApiService } from './integrations/custom-api/custom-api.service';
import { IntegrationEntity } from './integrations/integration.entity';
import { IntegrationsController } from './integrations/integrations.controller';
import { IntegrationsRepository } from './integrations/integrations.repository';
import { IntegrationsService } from './integrations/integrations.service';
import { McpClient } from './integrations/mcp/mcp-client';
import { McpServersController } from './integrations/mcp/mcp-servers.controller';
import { McpServersService } from './integrations/mcp/mcp-servers.service';
import { PipedreamController } from './integrations/pipedream/pipedream.controller';
import { PipedreamService } from './integrations/pipedream/pipedream.service';
import {
  KnowledgeBaseEntity,
  KnowledgePassageEntity,
} from './knowledge-bases/knowledge-base.entity';
import { KnowledgeBasesController } from './knowledge-bases/knowledge-bases.controller';
import { KnowledgeBasesRepository } from './knowledge-bases/knowledge-bases.repository';
import { KnowledgeBasesService } from './knowledge-bases/knowledge-bases.service';

@Module({
  imports: [
    IdempotencyModule,
    WorkflowsModule,
    TypeOrmModule.forFeature([
      AgentEntity,
      AgentChannelEntity,
      KnowledgeBaseEntity,
      KnowledgePassageEntity,
      IntegrationEntity,
      ActionEntity,
    ]),
  ],
  controllers: [
    AgentsController,
    KnowledgeBasesController,
    IntegrationsController,
    BuiltInIntegrationsController,
    CustomApiController,
    McpServersController,
    PipedreamController,
    ActionsController,
  ],
  providers: [
    SecretBox,
    OutboundHttp,
    AgentsRepository,
    AgentsService,
    AgentProfileService,
    AgentTestCodeService,
    ChannelsRepository,
    KnowledgeBasesRepository,
    KnowledgeBasesService,
    IntegrationsRepository,
    IntegrationsService,
    BuiltInIntegrationsService,
    CustomApiService,
    McpClient,
    McpServersService,
    PipedreamService,
    ActionsRepository,
    ActionsService,
  ],
  exports: [AgentsService],
})
export class AgentsModule {}
