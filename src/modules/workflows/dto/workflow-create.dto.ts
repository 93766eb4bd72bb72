import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { NullableHttpUrl, NullableString, RequiredString } from '@/common/validation/string-fields';
import { IsPlainObject, OptionalNotNull } from '@/common/validation/decorators';
import { ArrayOf, ArrayOfStringOrObject } from '@/common/validation/array-of';
import { LIMITS } from '@/common/validation/limits';
import { JsonObject, WorkflowListItem, WorkflowVisibility } from '../entities/workflow.entity';
import { MaxTriggerKeywords, MaxTriggerPhrases } from './trigger-limits';
import { FaqDto, FlowDto, GuideDto, RuleDto } from './workflow-parts.dto';

/** A year, to keep the value a plain integer in every database. */
const MAX_SETUP_MINUTES = 525_600;

/** Defaults (visibility, empty lists) are applied by the service, not here: see WorkflowUpdateDto. */
export class WorkflowCreateDto {
  @RequiredString(LIMITS.name)
  name: string;

  @NullableString(LIMITS.description)
  description?: string | null;

  @NullableString(LIMITS.name)
  category?: string | null;

  @ApiPropertyOptional({ enum: ['private', 'public'], default: 'private' })
  @OptionalNotNull()
  @IsIn(['private', 'public'])
  visibility?: WorkflowVisibility;

  @NullableString(LIMITS.systemPrompt)
  system_prompt?: string | null;

  @ArrayOf(RuleDto, {
    description: `At most ${LIMITS.triggerPhrases} trigger phrases over all rules`,
  })
  @MaxTriggerPhrases()
  rules?: RuleDto[];

  @ArrayOf(FlowDto, {
    description: `At most ${LIMITS.triggerPhrases} trigger keywords over all flows`,
  })
  @MaxTriggerKeywords()
  flows?: FlowDto[];

  @ApiPropertyOptional({ type: [String], maxItems: LIMITS.array })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(LIMITS.array)
  @IsString({ each: true })
  @MaxLength(LIMITS.name, { each: true })
  tags?: string[];

  @ArrayOfStringOrObject()
  integrations?: WorkflowListItem[];

  @ArrayOfStringOrObject()
  channels?: WorkflowListItem[];

  @ArrayOfStringOrObject()
  actions?: WorkflowListItem[];

  @ApiPropertyOptional({ type: GuideDto, nullable: true })
  @IsOptional()
  @IsPlainObject()
  @ValidateNested()
  @Type(() => GuideDto)
  guide?: GuideDto | null;

  @ArrayOf(FaqDto)
  faq?: FaqDto[];

  @ArrayOfStringOrObject()
  setup_steps?: WorkflowListItem[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_SETUP_MINUTES,
    nullable: true,
    description: 'Minutes',
    example: 10,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_SETUP_MINUTES)
  setup_time?: number | null;

  @NullableHttpUrl()
  video_url?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  @IsOptional()
  @IsPlainObject()
  prompt_config?: JsonObject | null;
}
