import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsUUID, Matches } from 'class-validator';

export const USAGE_GROUPS = ['day', 'agent', 'model'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** A day, or a date-time that says its offset from UTC (one without it would be ambiguous). */
const BOUND = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** `YYYY-MM-DD`, or an ISO-8601 date-time with its offset, that exists. */
const IsPeriodBound = () => (target: object, property: string) => {
  Matches(BOUND, {
    message: `${property} must be a YYYY-MM-DD date or an ISO-8601 date-time with its offset`,
  })(target, property);
  IsISO8601({ strict: true }, { message: `${property} must be a date that exists` })(
    target,
    property,
  );
};

/** GET `/usage`. */
export class UsageQueryDto {
  @ApiPropertyOptional({
    example: '2026-11-01',
    description:
      'Start of the period, included: a day (from its start in TEAM_TIME_ZONE) or an ISO-8601 ' +
      'date-time with its offset. Default: the start of this calendar month',
  })
  @IsOptional()
  @IsPeriodBound()
  from?: string;

  @ApiPropertyOptional({
    example: '2026-12-01',
    description:
      'End of the period, excluded (at most 366 days after `from`), in the forms of `from`. ' +
      'Default: the start of next calendar month',
  })
  @IsOptional()
  @IsPeriodBound()
  to?: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Only this agent's model calls" })
  @IsOptional()
  @IsUUID()
  agent_id?: string;

  @ApiPropertyOptional({
    enum: USAGE_GROUPS,
    default: 'day',
    description: 'One row per day (TEAM_TIME_ZONE), agent or model',
  })
  @IsOptional()
  @IsIn(USAGE_GROUPS)
  group_by?: UsageGroup;
}

export class UsageRowDto {
  @ApiProperty({
    description: "The group: a day (YYYY-MM-DD, TEAM_TIME_ZONE), an agent's id, or a model",
    example: '2026-11-26',
  })
  key: string;

  @ApiProperty({ description: 'Calls to the model, ok or failed' }) model_calls: number;
  @ApiProperty({ description: 'Prompt tokens, as the provider reported them' })
  prompt_tokens: number;
  @ApiProperty({ description: 'Completion tokens, as the provider reported them' })
  completion_tokens: number;
  @ApiProperty({ description: 'Calls that failed (an error, a timeout, no answer)' })
  failed_calls: number;
}

/** A conversation's model calls and their tokens (zeros when the model never answered in it). */
export class ConversationUsageDto {
  @ApiProperty() model_calls: number;
  @ApiProperty() prompt_tokens: number;
  @ApiProperty() completion_tokens: number;
}
