import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { ApiExceptionFilter } from './common/http/api-exception.filter';
import { EnvelopeInterceptor } from './common/http/envelope.interceptor';
import { FallbackModule } from './common/http/fallback.module';
import { RouteMetadataModule } from './common/http/route-metadata';
import { RequestBodyGuard } from './common/http/request-body.guard';
import { IdempotencyInterceptor } from './common/idempotency/idempotency.interceptor';
import { IdempotencyModule } from './common/idempotency/idempotency.module';
import { LoggingModule } from './common/logging/logging.module';
import { MetricsModule } from './common/metrics/metrics.module';
import { RateLimitGuard } from './common/rate-limit/rate-limit.guard';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { RedisModule } from './common/redis/redis.module';
import { StateModule } from './common/state/state.module';
import { ApiValidationPipe } from './common/validation/api-validation.pipe';
import { UnknownQueryInterceptor } from './common/validation/unknown-query.interceptor';
import { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { JobsModule } from './database/jobs/jobs.module';
import { AgentProfileModule } from '@/modules/agent-profile/agent-profile.module';
import { RepliesModule } from '@/modules/replies/replies.module';
import { WidgetModule } from '@/modules/widget/widget.module';
import { ChannelsModule } from '@/modules/channels/channels.module';
import { AgentsModule } from './modules/agents/agents.module';
import { IntegrationsModule } from '@/modules/integrations/integrations.module';
import { KnowledgeModule } from '@/modules/knowledge/knowledge.module';
import { AgentLimitGuard } from './modules/auth/agent-limit.guard';
import { ApiKeyGuard } from './modules/auth/api-key.guard';
import { AuthModule } from './modules/auth/auth.module';
import { ScopeGuard } from './modules/auth/scope.guard';
import { CallsModule } from './modules/calls/calls.module';
import { ConversationsModule } from './modules/conversations/conversations.module';
import { HealthModule } from './modules/health/health.module';
import { ModelSettingsModule } from './modules/model-settings/model-settings.module';
import { PhoneNumbersModule } from './modules/phone-numbers/phone-numbers.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { UsageModule } from './modules/usage/usage.module';
import { WorkflowsModule } from './modules/workflows/workflows.module';

/**
 * The request path (docs/architecture.md): guards in the order rate limit → API key → scope →
 * agent limit → body, then idempotency (outer) and envelope (inner) interceptors, the validation
 * pipe, and one filter.
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(config),
        LoggingModule,
        RouteMetadataModule,
        MetricsModule,
        DatabaseModule,
        JobsModule,
        RedisModule,
        StateModule,
        RateLimitModule,
        IdempotencyModule,
        AuthModule,
        HealthModule,
        ModelSettingsModule,
        WorkflowsModule,
        AgentsModule,
        UsageModule,
        // Every feature is listed, imported by another or not: only the modules listed here are
        // sure to register their routes before the fallback's catch-all.
        KnowledgeModule,
        IntegrationsModule,
        AgentProfileModule,
        ConversationsModule,
        RepliesModule,
        WidgetModule,
        ChannelsModule,
        PhoneNumbersModule,
        CallsModule,
        WebhooksModule,
        FallbackModule,
      ],
      providers: [
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_GUARD, useExisting: ScopeGuard },
        { provide: APP_GUARD, useExisting: AgentLimitGuard },
        { provide: APP_GUARD, useClass: RequestBodyGuard },
        { provide: APP_INTERCEPTOR, useClass: UnknownQueryInterceptor },
        { provide: APP_INTERCEPTOR, useExisting: IdempotencyInterceptor },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_PIPE, useClass: ApiValidationPipe },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ],
    };
  }
}
