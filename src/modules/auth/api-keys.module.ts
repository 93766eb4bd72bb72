import { Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { TeamsService } from './teams.service';

/** Teams and keys as records: shared by the HTTP application and the admin CLI. */
@Module({
  providers: [TeamsService, ApiKeysService],
  exports: [TeamsService, ApiKeysService],
})
export class ApiKeysModule {}
