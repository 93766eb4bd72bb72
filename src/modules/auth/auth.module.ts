import { Module } from '@nestjs/common';
import { PRINCIPAL_RESOLVER } from '@/common/rate-limit/principal-resolver';
import { AgentLimitGuard } from './agent-limit.guard';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysModule } from './api-keys.module';
import { BootstrapKeyService } from './bootstrap-key.service';
import { ScopeGuard } from './scope.guard';

@Module({
  imports: [ApiKeysModule],
  providers: [
    ApiKeyAuthenticator,
    { provide: PRINCIPAL_RESOLVER, useExisting: ApiKeyAuthenticator },
    ApiKeyGuard,
    ScopeGuard,
    AgentLimitGuard,
    BootstrapKeyService,
  ],
  exports: [
    ApiKeysModule,
    ApiKeyAuthenticator,
    PRINCIPAL_RESOLVER,
    ApiKeyGuard,
    ScopeGuard,
    AgentLimitGuard,
  ],
})
export class AuthModule {}
