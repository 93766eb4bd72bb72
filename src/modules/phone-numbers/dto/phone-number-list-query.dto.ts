import { ListQueryDto } from '@/common/pagination/list-query.dto';
import { IsSort } from '@/common/pagination/sort';

export const PHONE_NUMBER_SORT_FIELDS = ['created_at', 'e164', 'label'] as const;

/** Search runs over e164 and label. */
export class PhoneNumberListQueryDto extends ListQueryDto {
  @IsSort(PHONE_NUMBER_SORT_FIELDS, '-created_at')
  override sort?: string;
}
