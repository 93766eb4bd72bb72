import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '@/common/pagination/list-query.dto';
import { IsSort } from '@/common/pagination/sort';
import { BodyId } from '@/common/validation/id-fields';
import { LIMITS } from '@/common/validation/limits';
import { NullableString } from '@/common/validation/string-fields';
import {
  ACTION_RUN_STATUSES,
  ActionRunEntity,
  ActionRunStatus,
} from '../entities/action-run.entity';

export class ActionRunListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ACTION_RUN_STATUSES })
  @IsOptional()
  @IsIn(ACTION_RUN_STATUSES)
  status?: ActionRunStatus;

  @BodyId()
  @NullableString(64)
  conversation_id?: string | null;

  @IsSort(['created_at'], '-created_at')
  override sort?: string;
}

export class ActionRunRejectDto {
  @NullableString(LIMITS.description)
  reason?: string | null;
}

export class ActionRunResponseDto {
  @ApiProperty() id: string;
  @ApiProperty() agent_id: string;
  @ApiProperty() conversation_id: string;
  @ApiProperty() message_id: string;
  @ApiProperty() action_id: string;
  @ApiProperty() action_name: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) arguments: Record<string, unknown>;
  @ApiProperty({ enum: ACTION_RUN_STATUSES }) status: ActionRunStatus;
  @ApiProperty({
    nullable: true,
    description: 'What the action answered: any JSON value',
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {} },
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
    ],
  })
  result: unknown;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
  @ApiProperty({ type: String, nullable: true }) decided_by_api_key_id: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export function toActionRunResponse(run: ActionRunEntity): ActionRunResponseDto {
  return {
    id: run.id,
    agent_id: run.agentId,
    conversation_id: run.conversationId,
    message_id: run.messageId,
    action_id: run.actionId,
    action_name: run.actionName,
    arguments: run.arguments,
    status: run.status,
    result: run.result ?? null,
    error: run.error,
    decided_by_api_key_id: run.decidedByApiKeyId,
    created_at: run.createdAt.toISOString(),
    updated_at: run.updatedAt.toISOString(),
  };
}
