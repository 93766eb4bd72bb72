import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { NullableString } from '@/common/validation/string-fields';
import { LIMITS } from '@/common/validation/limits';
import { AGENT_STATUSES, AgentStatus } from '../entities/agent.entity';

export class AgentLiveStatusDto {
  @ApiProperty({ enum: AGENT_STATUSES })
  @IsIn(AGENT_STATUSES)
  status: AgentStatus;

  @NullableString(LIMITS.description)
  status_reason?: string | null;
}
