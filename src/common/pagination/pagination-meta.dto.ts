import { ApiProperty } from '@nestjs/swagger';
import { PaginationMeta } from './page';

export class PaginationMetaDto implements PaginationMeta {
  @ApiProperty() total_count: number;
  @ApiProperty() page_count: number;
  @ApiProperty() current_page: number;
  @ApiProperty() limit: number;
  @ApiProperty() has_next_page: boolean;
  @ApiProperty() has_previous_page: boolean;
}
