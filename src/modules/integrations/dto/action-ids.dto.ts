import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';
import { BodyId } from '@/common/validation/id-fields';
import { LIMITS } from '@/common/validation/limits';

export class ActionIdsDto {
  @BodyId()
  @ApiProperty({ type: [String], maxItems: LIMITS.array })
  @IsArray()
  @ArrayMaxSize(LIMITS.array)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  action_ids: string[];
}
