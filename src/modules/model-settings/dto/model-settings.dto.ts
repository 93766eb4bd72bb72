import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { HasNoUrlCredentials } from '@/common/validation/decorators';
import { NullableHttpUrl, NullableString } from '@/common/validation/string-fields';

export const MODEL_NAME_CHARS = 255;
export const MAX_ALLOWED_MODELS = 100;
/** The largest budget a 32-bit integer column holds, on both databases. */
export const MAX_MONTHLY_TOKEN_BUDGET = 2_147_483_647;

/** PUT `/settings/model`: the settings as a whole; what is left out is cleared. */
export class ModelSettingsPutDto {
  @NullableHttpUrl({
    description:
      "An OpenAI-compatible API's base URL (`…/v1`), on a public address. With `api_key` and " +
      "`model`: the team's own provider. Without the three: the environment's",
    example: 'https://api.openai.com/v1',
  })
  @HasNoUrlCredentials()
  base_url?: string | null;

  @NullableString(1000, {
    description:
      'Write-only: checked with the provider (`GET {base_url}/models`), stored sealed, never ' +
      'shown. May be left out when `base_url` is the one already stored: the stored key stays',
    writeOnly: true,
  })
  api_key?: string | null;

  @NullableString(MODEL_NAME_CHARS, {
    description: "The model used when a workflow's `prompt_config.model` names none",
    example: 'gpt-4o-mini',
  })
  model?: string | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: MAX_ALLOWED_MODELS,
    description:
      "The only models a workflow's `prompt_config.model` may name (checked when it is written); " +
      'null or left out: any',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ALLOWED_MODELS)
  @ArrayUnique({ message: 'must not repeat a model' })
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(MODEL_NAME_CHARS, { each: true })
  allowed_models?: string[] | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: MAX_MONTHLY_TOKEN_BUDGET,
    description:
      'Prompt + completion tokens a calendar month (UTC) may use; once reached, replies go on ' +
      'without the model. null or left out: no budget',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_MONTHLY_TOKEN_BUDGET)
  monthly_token_budget?: number | null;
}

export const MODEL_SOURCES = ['team', 'environment'] as const;
export type ModelSource = (typeof MODEL_SOURCES)[number];

export class ModelSettingsResponseDto {
  @ApiProperty({
    enum: MODEL_SOURCES,
    description: "Whose provider answers: the team's own, or the environment's (LLM_*)",
  })
  source: ModelSource;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The team's base URL; null with the environment's (operator configuration)",
  })
  base_url: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The default model: the team's, or the environment's; null when there is none",
  })
  model: string | null;

  @ApiProperty({ description: 'Whether a key of the team is stored (the key is never shown)' })
  has_api_key: boolean;

  @ApiProperty({ type: [String], nullable: true })
  allowed_models: string[] | null;

  @ApiProperty({ type: Number, nullable: true })
  monthly_token_budget: number | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the team last changed them; null: never (or since DELETE)',
  })
  updated_at: string | null;
}
