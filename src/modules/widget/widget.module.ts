import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { RateLimitModule } from '@/common/rate-limit/rate-limit.module';
import { AgentsModule } from '@/modules/agents/agents.module';
import { ConversationsModule } from '@/modules/conversations/conversations.module';
import { VisitorsService } from './visitors.service';
import { WIDGET_API_PREFIX } from './widget-cors';
import { WidgetKeyGuard } from './widget-key.guard';
import { WidgetPreflightMiddleware } from './widget-preflight.middleware';
import { WidgetRateLimits } from './widget-rate-limits';
import { WidgetScriptController } from './widget-script.controller';
import { WidgetStreamController } from './widget-stream.controller';
import { WidgetTickets } from './widget-tickets';
import { WidgetController } from './widget.controller';

/**
 * The web chat on the public internet (docs/api.md §7a): the script any site loads, and the API
 * its visitors use with a publishable key instead of an API key, outside the console's prefix.
 */
@Module({
  imports: [AgentsModule, ConversationsModule, RateLimitModule],
  controllers: [WidgetController, WidgetStreamController, WidgetScriptController],
  providers: [VisitorsService, WidgetKeyGuard, WidgetRateLimits, WidgetTickets],
})
export class WidgetModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(WidgetPreflightMiddleware)
      .forRoutes({ path: `${WIDGET_API_PREFIX}/*path`, method: RequestMethod.OPTIONS });
  }
}
