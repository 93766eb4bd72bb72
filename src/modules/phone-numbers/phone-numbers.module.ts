import { Module } from '@nestjs/common';
import { AgentsModule } from '@/modules/agents/agents.module';
import { PhoneNumberOperationsModule } from './phone-number-operations.module';
import { PhoneNumberRequestsController } from './phone-number-requests.controller';
import { PhoneNumberRequestsService } from './phone-number-requests.service';
import { PhoneNumbersController } from './phone-numbers.controller';
import { PhoneNumbersService } from './phone-numbers.service';

/**
 * A team's phone numbers and its provisioning requests. The requests' controller comes first, so
 * that `/phone-numbers/request` is routed before `/phone-numbers/{id}` could take it.
 */
@Module({
  imports: [AgentsModule, PhoneNumberOperationsModule],
  controllers: [PhoneNumberRequestsController, PhoneNumbersController],
  providers: [PhoneNumbersService, PhoneNumberRequestsService],
})
export class PhoneNumbersModule {}
