import { Module } from '@nestjs/common';
import { AgentsModule } from '@/modules/agents/agents.module';
import { OutboundModule } from '@/common/outbound/outbound.module';
import { WebhooksModule } from '@/modules/webhooks/webhooks.module';
import { KnowledgeFetchRepository } from './fetch/knowledge-fetch.repository';
import { KnowledgeFetchService } from './fetch/knowledge-fetch.service';
import { KnowledgeIndexService } from './knowledge-index.service';
import { KnowledgeFetchWorker } from './fetch/knowledge-fetch.worker';
import { KnowledgeQuota } from './knowledge-quota';
import { PageFetcher } from './fetch/page-fetcher';
import { PageReader } from './fetch/page-reader';
import { passageIndexProvider } from './index/passage-index.provider';
import { PassagesRepository } from './index/passages.repository';
import { KnowledgeBasesController } from './knowledge-bases.controller';
import { KnowledgeBasesRepository } from './knowledge-bases.repository';
import { KnowledgeBasesService } from './knowledge-bases.service';
import { KnowledgeFetchMetrics } from './fetch/knowledge-fetch.metrics';

/** The agent's knowledge bases, the fetching of URL ones, and the passages replies draw on. */
@Module({
  imports: [
    OutboundModule,
    // The agent's profile lists the knowledge bases, and every one belongs to an agent.
    AgentsModule,
    WebhooksModule,
  ],
  controllers: [KnowledgeBasesController],
  providers: [
    KnowledgeFetchMetrics,
    KnowledgeBasesRepository,
    KnowledgeBasesService,
    passageIndexProvider,
    PassagesRepository,
    KnowledgeIndexService,
    KnowledgeFetchRepository,
    KnowledgeFetchService,
    KnowledgeQuota,
    KnowledgeFetchWorker,
    PageFetcher,
    PageReader,
  ],
  exports: [KnowledgeBasesService, KnowledgeIndexService],
})
export class KnowledgeModule {}
