import { Module } from '@nestjs/common';
import { SecretBox } from '@/config/secret-box';
import { IdempotencyModule } from '@/common/idempotency/idempotency.module';
import { OutboundModule } from '@/common/outbound/outbound.module';
import { AgentsModule } from '@/modules/agents/agents.module';
import { ActionWithdrawals } from './action-withdrawals.service';
import { ActionExecutors } from './actions/action-executors';
import { ActionsController } from './actions/actions.controller';
import { ActionsRepository } from './actions/actions.repository';
import { ActionsService } from './actions/actions.service';
import { BuiltInIntegrationsController } from './built-in/built-in-integrations.controller';
import { BuiltInIntegrationsService } from './built-in/built-in-integrations.service';
import { ConnectorExecutor } from './built-in/connector.executor';
import { ProviderClient } from './built-in/providers/provider-client';
import { CustomApiController } from './custom-api/custom-api.controller';
import { CustomApiExecutor } from './custom-api/custom-api.executor';
import { CustomApiService } from './custom-api/custom-api.service';
import { IntegrationsController } from './integrations.controller';
import { IntegrationsRepository } from './integrations.repository';
import { IntegrationsService } from './integrations.service';
import { McpClient } from './mcp/mcp-client';
import { McpServersController } from './mcp/mcp-servers.controller';
import { McpServersService } from './mcp/mcp-servers.service';
import { McpToolExecutor } from './mcp/mcp-tool.executor';
import { PipedreamController } from './pipedream/pipedream.controller';
import { PipedreamService } from './pipedream/pipedream.service';

/** The agent's integrations of every family, and their actions (the tools the agent can call). */
@Module({
  imports: [
    OutboundModule,
    // The agent's profile lists the integrations, and every integration belongs to an agent.
    AgentsModule,
    IdempotencyModule,
  ],
  controllers: [
    IntegrationsController,
    BuiltInIntegrationsController,
    CustomApiController,
    McpServersController,
    PipedreamController,
    ActionsController,
  ],
  providers: [
    SecretBox,
    IntegrationsRepository,
    IntegrationsService,
    BuiltInIntegrationsService,
    CustomApiService,
    McpClient,
    McpServersService,
    PipedreamService,
    ActionsRepository,
    ActionsService,
    ProviderClient,
    CustomApiExecutor,
    ConnectorExecutor,
    McpToolExecutor,
    ActionExecutors,
    ActionWithdrawals,
  ],
  exports: [IntegrationsService, ActionExecutors, ActionWithdrawals],
})
export class IntegrationsModule {}
