import { Module } from '@nestjs/common';
import { WorkflowUsersRegistry } from './workflow-users.service';
import { WorkflowsController } from './workflows.controller';
import { WorkflowsRepository } from './workflows.repository';
import { WorkflowsService } from './workflows.service';

@Module({
  controllers: [WorkflowsController],
  providers: [WorkflowsRepository, WorkflowUsersRegistry, WorkflowsService],
  exports: [WorkflowsService, WorkflowUsersRegistry],
})
export class WorkflowsModule {}
