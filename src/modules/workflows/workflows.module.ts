import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WorkflowEntity } from './entities/workflow.entity';
import { ForeignAgentsRepository } from './foreign-agents.repository';
import { WorkflowsController } from './workflows.controller';
import { WorkflowsRepository } from './workflows.repository';
import { WorkflowsService } from './workflows.service';

@Module({
  imports: [TypeOrmModule.forFeature([WorkflowEntity])],
  controllers: [WorkflowsController],
  providers: [WorkflowsRepository, ForeignAgentsRepository, WorkflowsService],
  exports: [WorkflowsService],
})
export class WorkflowsModule {}
