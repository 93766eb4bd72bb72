import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { BodyId } from '@/common/validation/id-fields';
import { LIMITS } from '@/common/validation/limits';
import { RequiredString } from '@/common/validation/string-fields';
import { Region, REGIONS } from '../entities/phone-number-request.entity';

/** Bounds that keep the counts within a 32-bit integer column, far above any real request. */
export const MAX_AGENT_COUNT = 1_000;
export const MAX_OUTBOUND_MINUTES = 10_000_000;

export class PhoneNumberRequestCreateDto {
  @RequiredString(LIMITS.name, { example: 'Ada Stores' })
  business_name: string;

  @RequiredString(LIMITS.description, { example: 'Order enquiries from customers in Lagos' })
  intended_use: string;

  @ApiProperty({ enum: REGIONS })
  @IsIn(REGIONS)
  region: Region;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_AGENT_COUNT, example: 1 })
  @IsInt()
  @Min(1)
  @Max(MAX_AGENT_COUNT)
  agent_count: number;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_OUTBOUND_MINUTES, example: 0 })
  @IsInt()
  @Min(0)
  @Max(MAX_OUTBOUND_MINUTES)
  outbound_minutes: number;

  @ApiPropertyOptional({ type: String, nullable: true, description: "One of the team's agents" })
  @BodyId()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  submitted_by_agent_id?: string | null;
}
