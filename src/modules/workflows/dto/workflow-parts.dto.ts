import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { OptionalNotNull } from '@/common/validation/decorators';
import { LIMITS } from '@/common/validation/limits';

export class RuleDto {
  @ApiPropertyOptional({ description: 'Assigned by the server when left out', maxLength: 64 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  id?: string | null;

  @ApiPropertyOptional({ maxLength: LIMITS.name, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.name)
  name?: string | null;

  @ApiPropertyOptional({
    description: 'Comma-separated keywords or phrases',
    maxLength: LIMITS.description,
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.description)
  trigger?: string | null;

  @ApiPropertyOptional({ maxLength: LIMITS.description, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.description)
  condition?: string | null;

  @ApiPropertyOptional({ maxLength: LIMITS.message, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.message)
  response?: string | null;

  @ApiPropertyOptional({ example: 'escalate', maxLength: LIMITS.name, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.name)
  action?: string | null;

  @ApiPropertyOptional({ default: true })
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}

export class FlowTriggerKeywordDto {
  @ApiProperty({ maxLength: LIMITS.name })
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.name)
  keyword: string;

  @ApiPropertyOptional({ enum: ['high', 'medium', 'low'], nullable: true })
  @IsOptional()
  @IsIn(['high', 'medium', 'low'])
  weight?: 'high' | 'medium' | 'low' | null;
}

export class FlowStepDto {
  @ApiProperty({ example: 'message', maxLength: 64 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  type: string;

  @ApiPropertyOptional({ maxLength: LIMITS.message, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.message)
  content?: string | null;

  @ApiPropertyOptional({ maxLength: LIMITS.name, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.name)
  action?: string | null;

  @ApiPropertyOptional({ maxLength: LIMITS.message, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.message)
  followup?: string | null;
}

export class FlowDto {
  @ApiProperty({ maxLength: LIMITS.name })
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.name)
  name: string;

  @ApiPropertyOptional({ maxLength: LIMITS.description, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.description)
  description?: string | null;

  @ApiPropertyOptional({ maxLength: LIMITS.name, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.name)
  category?: string | null;

  @ApiPropertyOptional({ minimum: -1_000_000, maximum: 1_000_000, nullable: true })
  @IsOptional()
  @IsInt()
  @Min(-1_000_000)
  @Max(1_000_000)
  priority?: number | null;

  @ApiPropertyOptional({ default: true })
  @OptionalNotNull()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({ type: [FlowTriggerKeywordDto], maxItems: LIMITS.array })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(LIMITS.array)
  @ValidateNested({ each: true })
  @Type(() => FlowTriggerKeywordDto)
  trigger_keywords?: FlowTriggerKeywordDto[];

  @ApiPropertyOptional({ type: [FlowStepDto], maxItems: LIMITS.array })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(LIMITS.array)
  @ValidateNested({ each: true })
  @Type(() => FlowStepDto)
  conversation_steps?: FlowStepDto[];
}

export class GuideDto {
  @ApiPropertyOptional({ maxLength: LIMITS.url, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.url)
  youtubeUrl?: string | null;

  @ApiProperty({ type: [String], maxItems: LIMITS.array })
  @IsArray()
  @ArrayMaxSize(LIMITS.array)
  @IsString({ each: true })
  @MaxLength(LIMITS.description, { each: true })
  steps: string[];
}

export class FaqDto {
  @ApiProperty({ maxLength: LIMITS.description })
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.description)
  question: string;

  @ApiProperty({ maxLength: LIMITS.message })
  @IsString()
  @MaxLength(LIMITS.message)
  answer: string;
}
