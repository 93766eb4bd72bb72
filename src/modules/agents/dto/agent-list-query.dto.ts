import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '@/common/pagination/list-query.dto';
import { IsSort } from '@/common/pagination/sort';
import { AGENT_STATUSES, AgentStatus } from '../entities/agent.entity';

export const AGENT_SORT_FIELDS = ['name', 'status', 'created_at', 'updated_at'] as const;

export class AgentListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: AGENT_STATUSES })
  @IsOptional()
  @IsIn(AGENT_STATUSES)
  status?: AgentStatus;

  @IsSort(AGENT_SORT_FIELDS, '-created_at')
  override sort?: string;
}
