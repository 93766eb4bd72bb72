import { ApiProperty } from '@nestjs/swagger';
import { STRING_OR_OBJECT_SCHEMA } from '@/common/validation/decorators';
import {
  JsonObject,
  WorkflowEntity,
  WorkflowFaq,
  WorkflowFlow,
  WorkflowGuide,
  WorkflowListItem,
  WorkflowRule,
  WorkflowVisibility,
} from '../entities/workflow.entity';
import { FaqDto, FlowDto, GuideDto, RuleDto } from './workflow-parts.dto';

export class WorkflowResponseDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true }) category: string | null;
  @ApiProperty({ enum: ['private', 'public'] }) visibility: WorkflowVisibility;
  @ApiProperty({ description: "True when the caller's team owns the workflow" }) is_owner: boolean;
  @ApiProperty({ type: String, nullable: true }) system_prompt: string | null;
  @ApiProperty({ type: [RuleDto] }) rules: WorkflowRule[];
  @ApiProperty({ type: [FlowDto] }) flows: WorkflowFlow[];
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: 'array', items: STRING_OR_OBJECT_SCHEMA }) integrations: WorkflowListItem[];
  @ApiProperty({ type: 'array', items: STRING_OR_OBJECT_SCHEMA }) channels: WorkflowListItem[];
  @ApiProperty({ type: 'array', items: STRING_OR_OBJECT_SCHEMA }) actions: WorkflowListItem[];
  @ApiProperty({ type: GuideDto, nullable: true }) guide: WorkflowGuide | null;
  @ApiProperty({ type: [FaqDto] }) faq: WorkflowFaq[];
  @ApiProperty({ type: 'array', items: STRING_OR_OBJECT_SCHEMA }) setup_steps: WorkflowListItem[];
  @ApiProperty({ type: 'integer', nullable: true, description: 'Minutes' }) setup_time:
    number | null;
  @ApiProperty({ type: String, nullable: true }) video_url: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  prompt_config: JsonObject | null;
  @ApiProperty({ example: '2026-11-22T10:15:30.123Z' }) created_at: string;
  @ApiProperty({ example: '2026-11-22T10:15:30.123Z' }) updated_at: string;
}

export function toWorkflowResponse(
  workflow: WorkflowEntity,
  callerTeamId: string,
): WorkflowResponseDto {
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    category: workflow.category,
    visibility: workflow.visibility,
    is_owner: workflow.teamId === callerTeamId,
    system_prompt: workflow.systemPrompt,
    rules: workflow.rules,
    flows: workflow.flows,
    tags: workflow.tags,
    integrations: workflow.integrations,
    channels: workflow.channels,
    actions: workflow.actions,
    guide: workflow.guide,
    faq: workflow.faq,
    setup_steps: workflow.setupSteps,
    setup_time: workflow.setupTime,
    video_url: workflow.videoUrl,
    prompt_config: workflow.promptConfig,
    created_at: workflow.createdAt.toISOString(),
    updated_at: workflow.updatedAt.toISOString(),
  };
}
