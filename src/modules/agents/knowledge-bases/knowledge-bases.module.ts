import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentsModule } from '@/modules/agents/agents.module';
import { KnowledgeBaseEntity, KnowledgePassageEntity } from './entities/knowledge-base.entity';
import { KnowledgeBasesController } from './knowledge-bases.controller';
import { KnowledgeBasesRepository } from './knowledge-bases.repository';
import { KnowledgeBasesService } from './knowledge-bases.service';

/** The agent's knowledge bases, and the passages its replies draw on. */
@Module({
  imports: [
    // The agent's profile lists the knowledge bases, and every one belongs to an agent.
    forwardRef(() => AgentsModule),
    TypeOrmModule.forFeature([KnowledgeBaseEntity, KnowledgePassageEntity]),
  ],
  controllers: [KnowledgeBasesController],
  providers: [KnowledgeBasesRepository, KnowledgeBasesService],
  exports: [KnowledgeBasesService],
})
export class KnowledgeBasesModule {}
