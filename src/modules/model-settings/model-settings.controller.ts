import { Body, Controller, Delete, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { ModelSettingsPutDto, ModelSettingsResponseDto } from './dto/model-settings.dto';
import { ModelSettingsService } from './model-settings.service';

@ApiTags('settings')
@Controller('settings/model')
export class ModelSettingsController {
  constructor(private readonly settings: ModelSettingsService) {}

  @Get()
  @Endpoint({
    scope: 'settings:read',
    summary: "The team's model provider (never its key), allowed models and monthly token budget",
    message: 'Model settings retrieved successfully',
    response: ModelSettingsResponseDto,
  })
  getModelSettings(@TeamId() teamId: string): Promise<ModelSettingsResponseDto> {
    return this.settings.get(teamId);
  }

  @Put()
  @Endpoint({
    scope: 'settings:write',
    summary:
      "Replace the team's model settings; a provider of its own is checked with it first " +
      '(GET /models: refused 400, unreachable 502, nothing stored)',
    message: 'Model settings saved successfully',
    response: ModelSettingsResponseDto,
    errors: [400, 409, 422, 502],
    idempotency: 'calls_out',
  })
  putModelSettings(
    @TeamId() teamId: string,
    @Body() input: ModelSettingsPutDto,
  ): Promise<ModelSettingsResponseDto> {
    return this.settings.put(teamId, input);
  }

  @Delete()
  @Endpoint({
    scope: 'settings:write',
    summary: "Back to the environment's provider, with no allowed models and no budget",
    message: 'Model settings deleted successfully',
    response: null,
  })
  deleteModelSettings(@TeamId() teamId: string): Promise<void> {
    return this.settings.delete(teamId);
  }
}
