import { Module } from '@nestjs/common';
import { WebhooksModule } from '@/modules/webhooks/webhooks.module';
import { WorkflowsModule } from '@/modules/workflows/workflows.module';
import { OutboundModule } from '@/common/outbound/outbound.module';
import { SecretBox } from '@/config/secret-box';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { ChannelsRepository } from './channels/channels.repository';
import { ChannelsController } from './channels.controller';
import { ChannelsService } from './channels.service';
import { ProviderChannels } from './provider-channels.service';
import { AgentTestCodeService } from './deployment/agent-test-code.service';
import { WorkflowUsersRepository } from './workflow-users.repository';

/**
 * The agent itself, its channels and its test deployment. Everything that belongs to an agent
 * (knowledge, integrations, conversations) lives in a module above this one and checks the agent
 * through AgentsService; GET /agents/{id}, which shows them all, is the agent profile's.
 */
@Module({
  imports: [WorkflowsModule, WebhooksModule, OutboundModule],
  controllers: [AgentsController, ChannelsController],
  providers: [
    AgentsRepository,
    AgentsService,
    AgentTestCodeService,
    ChannelsRepository,
    ChannelsService,
    ProviderChannels,
    SecretBox,
    WorkflowUsersRepository,
  ],
  exports: [AgentsService, ChannelsService, ProviderChannels],
})
export class AgentsModule {}
