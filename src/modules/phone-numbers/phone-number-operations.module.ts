import { Module } from '@nestjs/common';
import { ApiKeysModule } from '@/modules/auth/api-keys.module';
import { PhoneNumberOperationsService } from './phone-number-operations.service';
import { PhoneNumberRequestsRepository } from './phone-number-requests.repository';
import { PhoneNumbersRepository } from './phone-numbers.repository';

/**
 * The phone number records and the operators' decisions on requests: shared by the HTTP
 * application and the admin CLI, which must not start the agents' machinery to fulfil a request.
 */
@Module({
  imports: [ApiKeysModule],
  providers: [PhoneNumbersRepository, PhoneNumberRequestsRepository, PhoneNumberOperationsService],
  exports: [PhoneNumbersRepository, PhoneNumberRequestsRepository, PhoneNumberOperationsService],
})
export class PhoneNumberOperationsModule {}
