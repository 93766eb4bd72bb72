import { Module } from '@nestjs/common';
import { ModelSettingsModule } from '@/modules/model-settings/model-settings.module';
import { WorkflowUsersRegistry } from './workflow-users.service';
import { WorkflowsController } from './workflows.controller';
import { WorkflowsRepository } from './workflows.repository';
import { WorkflowsService } from './workflows.service';

@Module({
  imports: [ModelSettingsModule],
  controllers: [WorkflowsController],
  providers: [WorkflowsRepository, WorkflowUsersRegistry, WorkflowsService],
  exports: [WorkflowsService, WorkflowUsersRegistry],
})
export class WorkflowsModule {}
