import { DynamicModule, Module } from '@nestjs/common';
import { RedisModule } from './common/redis/redis.module';
import { StateModule } from './common/state/state.module';
import { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { ApiKeysModule } from './modules/auth/api-keys.module';
import { PhoneNumberOperationsModule } from './modules/phone-numbers/phone-number-operations.module';

/** What the admin CLI's commands use: the database, shared state, keys and phone numbers. */
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
    };
  }
}
