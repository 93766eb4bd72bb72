import { ApiProperty } from '@nestjs/swagger';
import { ActionEntity } from '../entities/action.entity';
import { ConfigField } from '../connector-catalog';
import { IntegrationStatus, IntegrationSummary } from '../entities/integration.entity';

const STATUSES = ['connected', 'pending', 'error'];

export class IntegrationSummaryDto {
  @ApiProperty() id: string;
  @ApiProperty({ example: 'stripe' }) type: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: STATUSES }) status: IntegrationStatus;
  @ApiProperty() is_connected: boolean;
}

export class ConfigFieldDto implements ConfigField {
  @ApiProperty() key: string;
  @ApiProperty() label: string;
  @ApiProperty({ enum: ['text', 'password', 'url', 'select', 'json'] }) type: ConfigField['type'];
  @ApiProperty() required: boolean;
}

export class IntegrationActionDto {
  @ApiProperty() action_name: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true }) category: string | null;
  @ApiProperty() is_enabled: boolean;
  @ApiProperty() require_human_approval: boolean;
}

export class IntegrationListItemDto extends IntegrationSummaryDto {
  @ApiProperty({ type: [ConfigFieldDto] }) config_fields: ConfigFieldDto[];
  @ApiProperty({ type: [IntegrationActionDto] }) actions: IntegrationActionDto[];
}

export function toIntegrationSummary(integration: IntegrationSummary): IntegrationSummaryDto {
  return {
    id: integration.id,
    type: integration.type,
    name: integration.name,
    status: integration.status,
    is_connected: integration.isConnected,
  };
}

export function toIntegrationAction(action: ActionEntity): IntegrationActionDto {
  return {
    action_name: action.actionName,
    name: action.name,
    description: action.description,
    category: action.category,
    is_enabled: action.isEnabled,
    require_human_approval: action.requireHumanApproval,
  };
}
