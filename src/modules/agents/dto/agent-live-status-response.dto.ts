import { ApiProperty } from '@nestjs/swagger';
import { AGENT_STATUSES, AgentEntity, AgentStatus } from '../entities/agent.entity';

export class AgentLiveStatusResponseDto {
  @ApiProperty({ enum: AGENT_STATUSES }) status: AgentStatus;
  @ApiProperty({ type: String, nullable: true }) status_reason: string | null;
}

export function toAgentLiveStatusResponse(agent: AgentEntity): AgentLiveStatusResponseDto {
  return { status: agent.status, status_reason: agent.statusReason };
}
