import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { TeamEntity } from '@/modules/auth/entities/team.entity';
import { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import { PhoneNumberRequestEntity } from './entities/phone-number-request.entity';
import { PhoneNumberEntity } from './entities/phone-number.entity';
import { PhoneNumberOperationsService } from './phone-number-operations.service';
import { PhoneNumberRequestsRepository } from './phone-number-requests.repository';
import { PhoneNumbersRepository } from './phone-numbers.repository';

/**
 * The phone number records and the operators' decisions on requests: shared by the HTTP
 * application and the admin CLI, which must not start the agents' machinery to fulfil a request.
 * The CLI's data source holds only the entities its modules name, so the agents and workflows are
 * named here too: the foreign keys of the phone numbers (and of the agents) point at them.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      PhoneNumberEntity,
      PhoneNumberRequestEntity,
      TeamEntity,
      AgentEntity,
      WorkflowEntity,
    ]),
  ],
  providers: [PhoneNumbersRepository, PhoneNumberRequestsRepository, PhoneNumberOperationsService],
  exports: [PhoneNumbersRepository, PhoneNumberRequestsRepository, PhoneNumberOperationsService],
})
export class PhoneNumberOperationsModule {}
