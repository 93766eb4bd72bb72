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

export class ActionsUpdatedDto {
  @ApiProperty({ description: "How many of the given ids are this agent's actions" })
  updated_count: number;
}

export class ActionResponseDto {
  @ApiProperty() id: string;
  @ApiProperty() integration_id: string;
  @ApiProperty() integration_type: string;
  @ApiProperty() integration_name: string;
  @ApiProperty() name: string;
  @ApiProperty() action_name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() is_enabled: boolean;
}
