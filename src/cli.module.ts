import { DynamicModule, Module } from '@nestjs/common';
import { RedisModule } from './common/redis/redis.module';
import { StateModule } from './common/state/state.module';
import { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { ApiKeysModule } from './modules/auth/api-keys.module';
import {
  KeysCommand,
  KeysCreateCommand,
  KeysListCommand,
  KeysRevokeCommand,
  KeysRotateCommand,
} from './modules/auth/cli/keys.command';
import {
  TeamsCommand,
  TeamsCreateCommand,
  TeamsListCommand,
} from './modules/auth/cli/teams.command';
import {
  PhoneNumbersCommand,
  PhoneNumbersFulfilCommand,
  PhoneNumbersRejectCommand,
  PhoneNumbersRequestsCommand,
} from './modules/phone-numbers/cli/phone-numbers.command';
import { PhoneNumberOperationsModule } from './modules/phone-numbers/phone-number-operations.module';

@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        AppConfigModule.forRoot(config),
        DatabaseModule,
        RedisModule,
        StateModule,
        ApiKeysModule,
        PhoneNumberOperationsModule,
      ],
      providers: [
        TeamsCommand,
        TeamsCreateCommand,
        TeamsListCommand,
        KeysCommand,
        KeysCreateCommand,
        KeysListCommand,
        KeysRotateCommand,
        KeysRevokeCommand,
        PhoneNumbersCommand,
        PhoneNumbersRequestsCommand,
        PhoneNumbersFulfilCommand,
        PhoneNumbersRejectCommand,
      ],
    };
  }
}
