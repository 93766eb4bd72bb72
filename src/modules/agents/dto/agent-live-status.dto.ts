import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { LIMITS } from '@/common/validation/limits';
import { AGENT_STATUSES, AgentStatus } from '../entities/agent.entity';

export class AgentLiveStatusDto {
  @ApiProperty({ enum: AGENT_STATUSES })
  @IsIn(AGENT_STATUSES)
  status: AgentStatus;

  @ApiPropertyOptional({ maxLength: LIMITS.description, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.description)
  status_reason?: string | null;
}

export class AgentLiveStatusResponseDto {
  @ApiProperty({ enum: AGENT_STATUSES }) status: AgentStatus;
  @ApiProperty({ type: String, nullable: true }) status_reason: string | null;
}
