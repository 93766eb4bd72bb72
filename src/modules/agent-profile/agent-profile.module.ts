import { Module } from '@nestjs/common';
import { AgentsModule } from '@/modules/agents/agents.module';
import { IntegrationsModule } from '@/modules/integrations/integrations.module';
import { KnowledgeModule } from '@/modules/knowledge/knowledge.module';
import { AgentProfileController } from './agent-profile.controller';
import { AgentProfileService } from './agent-profile.service';

/** GET /agents/{id}: the agent with summaries of its knowledge, integrations and channels. */
@Module({
  imports: [AgentsModule, KnowledgeModule, IntegrationsModule],
  controllers: [AgentProfileController],
  providers: [AgentProfileService],
})
export class AgentProfileModule {}
