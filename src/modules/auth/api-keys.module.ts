import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyEntity } from './entities/api-key.entity';
import { TeamEntity } from './entities/team.entity';
import { TeamsService } from './teams.service';

/** Teams and keys as records: shared by the HTTP application and the admin CLI. */
@Module({
  imports: [TypeOrmModule.forFeature([TeamEntity, ApiKeyEntity])],
  providers: [TeamsService, ApiKeysService],
  exports: [TeamsService, ApiKeysService],
})
export class ApiKeysModule {}
