import { ApiProperty } from '@nestjs/swagger';
import { WorkflowResponseDto } from '@/modules/workflows/dto/workflow-response.dto';
import {
  AgentEntity,
  AGENT_STATUSES,
  AgentStatus,
  Persona,
  PERSONAS,
} from '../entities/agent.entity';

export class AgentResponseDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: String, nullable: true }) language: string | null;
  @ApiProperty({ enum: PERSONAS, nullable: true }) persona: Persona | null;
  @ApiProperty() workflow_id: string;
  @ApiProperty({ type: String, nullable: true }) timezone: string | null;
  @ApiProperty({ type: String, nullable: true }) logo: string | null;
  @ApiProperty({ type: String, nullable: true }) business_name: string | null;
  @ApiProperty({ type: String, nullable: true }) business_address: string | null;
  @ApiProperty({ type: String, nullable: true }) business_email: string | null;
  @ApiProperty({ type: String, nullable: true }) business_description: string | null;
  @ApiProperty() test_channel_code: string;
  @ApiProperty({ enum: AGENT_STATUSES }) status: AgentStatus;
  @ApiProperty({ type: String, nullable: true }) status_reason: string | null;
  @ApiProperty({ type: String, nullable: true }) escalation_email: string | null;
  @ApiProperty() handoff_pauses_ai: boolean;
  @ApiProperty() operator_reply_pauses_ai: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export class AgentWithWorkflowResponseDto extends AgentResponseDto {
  @ApiProperty({ type: WorkflowResponseDto }) workflow: WorkflowResponseDto;
}

export function toAgentResponse(agent: AgentEntity): AgentResponseDto {
  return {
    id: agent.id,
    name: agent.name,
    description: agent.description,
    language: agent.language,
    persona: agent.persona,
    workflow_id: agent.workflowId,
    timezone: agent.timezone,
    logo: agent.logo,
    business_name: agent.businessName,
    business_address: agent.businessAddress,
    business_email: agent.businessEmail,
    business_description: agent.businessDescription,
    test_channel_code: agent.testChannelCode,
    status: agent.status,
    status_reason: agent.statusReason,
    escalation_email: agent.escalationEmail,
    handoff_pauses_ai: agent.handoffPausesAi,
    operator_reply_pauses_ai: agent.operatorReplyPausesAi,
    created_at: agent.createdAt.toISOString(),
    updated_at: agent.updatedAt.toISOString(),
  };
}
