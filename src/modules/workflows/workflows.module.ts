import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WorkflowEntity } from './entities/workflow.entity';
import { WorkflowUsersRegistry } from './workflow-users.service';
import { WorkflowsController } from './workflows.controller';
import { WorkflowsRepository } from './workflows.repository';
import { WorkflowsService } from './workflows.service';

@Module({
  imports: [TypeOrmModule.forFeature([WorkflowEntity])],
  controllers: [WorkflowsController],
  providers: [WorkflowsRepository, WorkflowUsersRegistry, WorkflowsService],
  exports: [WorkflowsService, WorkflowUsersRegistry],
})
export class WorkflowsModule {}
