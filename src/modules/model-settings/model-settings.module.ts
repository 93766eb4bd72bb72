import { Module } from '@nestjs/common';
import { IdempotencyModule } from '@/common/idempotency/idempotency.module';
import { OutboundModule } from '@/common/outbound/outbound.module';
import { SecretBox } from '@/config/secret-box';
import { ModelSettingsController } from './model-settings.controller';
import { ModelSettingsRepository } from './model-settings.repository';
import { ModelSettingsService } from './model-settings.service';

/**
 * A team's own model settings: provider, allowed models, monthly token budget. Below the
 * workflows (which check `prompt_config.model` against them) and the replies (which call the
 * provider they name).
 */
@Module({
  imports: [OutboundModule, IdempotencyModule],
  controllers: [ModelSettingsController],
  providers: [ModelSettingsRepository, ModelSettingsService, SecretBox],
  exports: [ModelSettingsService],
})
export class ModelSettingsModule {}
