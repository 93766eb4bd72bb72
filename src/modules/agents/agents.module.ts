import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IntegrationsModule } from '@/modules/agents/integrations/integrations.module';
import { KnowledgeBasesModule } from '@/modules/agents/knowledge-bases/knowledge-bases.module';
import { PhoneNumberEntity } from '@/modules/phone-numbers/entities/phone-number.entity';
import { WebhooksModule } from '@/modules/webhooks/webhooks.module';
import { WorkflowsModule } from '@/modules/workflows/workflows.module';
import { AgentProfileService } from './agent-profile.service';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { ChannelsRepository } from './channels/channels.repository';
import { AgentTestCodeService } from './deployment/agent-test-code.service';
import { AgentChannelEntity } from './entities/agent-channel.entity';
import { AgentEntity } from './entities/agent.entity';

/**
 * The agent itself, its channels and its test deployment. Its knowledge bases and integrations
 * are modules of their own; they check the agent through AgentsService, and the agent's profile
 * lists them through theirs, hence the forward references both ways.
 */
@Module({
  imports: [
    forwardRef(() => KnowledgeBasesModule),
    forwardRef(() => IntegrationsModule),
    WorkflowsModule,
    // Phone numbers are read, never written, here: a linked one connects the telephony channel.
    WebhooksModule,
    TypeOrmModule.forFeature([AgentEntity, AgentChannelEntity, PhoneNumberEntity]),
  ],
  controllers: [AgentsController],
  providers: [
    AgentsRepository,
    AgentsService,
    AgentProfileService,
    AgentTestCodeService,
    ChannelsRepository,
  ],
  exports: [AgentsService],
})
export class AgentsModule {}
