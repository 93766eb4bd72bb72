import { ApiProperty } from '@nestjs/swagger';
import { ActionEntity } from '../entities/action.entity';
import { IntegrationEntity } from '../entities/integration.entity';

export class ActionsUpdatedDto {
  @ApiProperty({ description: "How many of the given ids are this agent's actions" })
  updated_count: number;
}

export class ActionResponseDto {
  @ApiProperty() id: string;
  @ApiProperty() integration_id: string;
  @ApiProperty() integration_type: string;
  @ApiProperty() integration_name: string;
  @ApiProperty() name: string;
  @ApiProperty() action_name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() is_enabled: boolean;
}

export function toActionResponse(
  action: ActionEntity,
  integration: IntegrationEntity,
): ActionResponseDto {
  return {
    id: action.id,
    integration_id: action.integrationId,
    integration_type: integration.type,
    integration_name: integration.name,
    name: action.name,
    action_name: action.actionName,
    description: action.description,
    is_enabled: action.isEnabled,
  };
}
