import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '@/common/pagination/list-query.dto';
import { IsSort } from '@/common/pagination/sort';
import { REQUEST_STATUSES, RequestStatus } from '../entities/phone-number-request.entity';

export const REQUEST_SORT_FIELDS = ['created_at', 'updated_at'] as const;

/** Search runs over business_name and intended_use. */
export class PhoneNumberRequestListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: REQUEST_STATUSES })
  @IsOptional()
  @IsIn(REQUEST_STATUSES)
  status?: RequestStatus;

  @IsSort(REQUEST_SORT_FIELDS, '-created_at')
  override sort?: string;
}
