import { ListQueryDto } from '@/common/pagination/list-query.dto';
import { IsSort } from '@/common/pagination/sort';

export class WebhookListQueryDto extends ListQueryDto {
  @IsSort(['created_at', 'updated_at', 'url'], '-created_at')
  override sort?: string;
}
