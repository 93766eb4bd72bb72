import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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
  ValidateBy,
} from 'class-validator';
import { NullableHttpUrl, NullableString, RequiredString } from '@/common/validation/string-fields';
import { OptionalNotNull } from '@/common/validation/decorators';
import { ArrayOf } from '@/common/validation/array-of';
import { LIMITS } from '@/common/validation/limits';
import { TriggerPhraseLength } from './trigger-limits';
import {
  MAX_STEP_PATTERN,
  STEP_VALIDATION_KINDS,
  StepValidation,
  stepValidationProblem,
} from '../step-validation';

/** A collect step's `validate`: a kind, or `{ pattern }` (see stepValidationProblem). */
const IsStepValidation = () =>
  ValidateBy({
    name: 'isStepValidation',
    validator: {
      validate: (value: unknown) => stepValidationProblem(value) === null,
      defaultMessage: (args) => stepValidationProblem(args?.value) ?? '',
    },
  });

export class RuleDto {
  @ApiPropertyOptional({
    type: String,
    description: 'Assigned by the server when left out',
    maxLength: 64,
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  id?: string | null;

  @NullableString(LIMITS.name)
  name?: string | null;

  @NullableString(LIMITS.description, {
    description: `Comma-separated keywords or phrases, each at most ${LIMITS.name} characters`,
  })
  @TriggerPhraseLength()
  trigger?: string | null;

  @NullableString(LIMITS.description)
  condition?: string | null;

  @NullableString(LIMITS.message)
  response?: string | null;

  @NullableString(LIMITS.name, { example: 'escalate' })
  action?: string | null;

  @ApiPropertyOptional({ default: true })
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}

export class FlowTriggerKeywordDto {
  @RequiredString(LIMITS.name)
  keyword: string;

  @ApiPropertyOptional({ enum: ['high', 'medium', 'low'], nullable: true })
  @IsOptional()
  @IsIn(['high', 'medium', 'low'])
  weight?: 'high' | 'medium' | 'low' | null;
}

export class FlowStepDto {
  @RequiredString(64, { example: 'message' })
  type: string;

  @NullableString(LIMITS.message)
  content?: string | null;

  @NullableString(LIMITS.name)
  action?: string | null;

  @NullableString(LIMITS.message)
  followup?: string | null;

  @NullableString(64, {
    description: "A collect step's name for the customer's answer (default step_<n>)",
  })
  key?: string | null;

  @ApiPropertyOptional({
    description:
      "A collect step's check of the answer: a kind, or { pattern } (a regular expression, " +
      'matched case-insensitively; the match is what is kept)',
    oneOf: [
      { type: 'string', enum: [...STEP_VALIDATION_KINDS] },
      {
        type: 'object',
        properties: { pattern: { type: 'string', maxLength: MAX_STEP_PATTERN } },
        required: ['pattern'],
        additionalProperties: false,
      },
    ],
    nullable: true,
  })
  @IsOptional()
  @IsStepValidation()
  validate?: StepValidation | null;
}

export class FlowDto {
  @RequiredString(LIMITS.name)
  name: string;

  @NullableString(LIMITS.description)
  description?: string | null;

  @NullableString(LIMITS.name)
  category?: string | null;

  @ApiPropertyOptional({ type: 'integer', minimum: -1_000_000, maximum: 1_000_000, nullable: true })
  @IsOptional()
  @IsInt()
  @Min(-1_000_000)
  @Max(1_000_000)
  priority?: number | null;

  @ApiPropertyOptional({ default: true })
  @OptionalNotNull()
  @IsBoolean()
  is_active?: boolean;

  @ArrayOf(FlowTriggerKeywordDto)
  trigger_keywords?: FlowTriggerKeywordDto[];

  @ArrayOf(FlowStepDto)
  conversation_steps?: FlowStepDto[];
}

export class GuideDto {
  @NullableHttpUrl()
  youtubeUrl?: string | null;

  @ApiProperty({ type: [String], maxItems: LIMITS.array })
  @IsArray()
  @ArrayMaxSize(LIMITS.array)
  @IsString({ each: true })
  @MaxLength(LIMITS.description, { each: true })
  steps: string[];
}

export class FaqDto {
  @RequiredString(LIMITS.description)
  question: string;

  @ApiProperty({ maxLength: LIMITS.message })
  @IsString()
  @MaxLength(LIMITS.message)
  answer: string;
}
