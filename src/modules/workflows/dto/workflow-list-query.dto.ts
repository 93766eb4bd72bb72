import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '@/common/pagination/list-query.dto';
import { IsSort } from '@/common/pagination/sort';

const WORKFLOW_SORT_FIELDS = ['name', 'category', 'created_at', 'updated_at'] as const;
const WORKFLOW_SCOPES = ['owned', 'public', 'accessible'] as const;
export type WorkflowScope = (typeof WORKFLOW_SCOPES)[number];

export class WorkflowListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({
    enum: WORKFLOW_SCOPES,
    default: 'accessible',
    description: "owned: the team's; public: every public workflow; accessible: both",
  })
  @IsOptional()
  @IsIn(WORKFLOW_SCOPES)
  scope?: WorkflowScope;

  @IsSort(WORKFLOW_SORT_FIELDS, '-created_at')
  override sort?: string;
}
