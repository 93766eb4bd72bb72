import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { QueryInt } from '../validation/query-transforms';

const MAX_PAGE = 10_000_000;
const MAX_LIMIT = 100;

export class ListQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 })
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page: number = 1;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: 20 })
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(MAX_LIMIT)
  limit: number = 20;

  @ApiPropertyOptional({ description: 'Case-insensitive substring filter', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  search?: string;

  /** Subclasses narrow this to their whitelisted fields with `@IsSort()`. */
  sort?: string;
}
