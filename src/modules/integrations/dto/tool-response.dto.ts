import { ApiProperty } from '@nestjs/swagger';
import { ActionEntity } from '../entities/action.entity';

export const DEFAULT_TOOL_CATEGORY = 'custom';

export class ToolResponseDto {
  @ApiProperty() id: string;
  @ApiProperty() action_name: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ example: 'custom' }) category: string;
  @ApiProperty() is_enabled: boolean;
}

export function toToolResponse(action: ActionEntity): ToolResponseDto {
  return {
    id: action.id,
    action_name: action.actionName,
    name: action.name,
    description: action.description,
    category: action.category ?? DEFAULT_TOOL_CATEGORY,
    is_enabled: action.isEnabled,
  };
}
