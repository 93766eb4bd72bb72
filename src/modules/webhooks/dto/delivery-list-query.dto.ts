import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '@/common/pagination/list-query.dto';
import { IsSort } from '@/common/pagination/sort';
import { DELIVERY_STATUSES, DeliveryStatus } from '../entities/webhook-delivery.entity';

export class DeliveryListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @IsSort(['created_at', 'updated_at'], '-created_at')
  override sort?: string;
}
