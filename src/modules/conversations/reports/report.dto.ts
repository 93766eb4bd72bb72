import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsUUID, Matches } from 'class-validator';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day, `YYYY-MM-DD`, that exists. */
const IsDay = () => (target: object, property: string) => {
  Matches(DAY, { message: `${property} must be a date in the YYYY-MM-DD form` })(target, property);
  IsISO8601({ strict: true }, { message: `${property} must be a date that exists` })(
    target,
    property,
  );
};

/** GET `/reports/conversations`. */
export class ConversationReportQueryDto {
  @ApiProperty({ format: 'date', example: '2026-11-01', description: 'First day counted' })
  @IsDay()
  from: string;

  @ApiProperty({
    format: 'date',
    example: '2026-11-30',
    description: 'Last day counted (at most 92 days after `from`, both included)',
  })
  @IsDay()
  to: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Only this agent's conversations" })
  @IsOptional()
  @IsUUID()
  agent_id?: string;
}

export class ReportDayDto {
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty({ description: 'Conversations created that day' }) conversations: number;
  @ApiProperty({ description: 'Conversations handed to a person that day' }) handed_off: number;
  @ApiProperty({ description: 'Conversations resolved that day' }) resolved: number;
}

export class ConversationReportDto {
  @ApiProperty({ description: 'Conversations created in the period' })
  conversations: number;

  @ApiProperty({ description: 'Messages customers wrote in the period' })
  customer_messages: number;

  @ApiProperty({ description: 'Replies the AI wrote in the period' })
  ai_replies: number;

  @ApiProperty({ description: 'Messages operators wrote to customers in the period (not notes)' })
  operator_messages: number;

  @ApiProperty({ description: 'Conversations handed to a person in the period' })
  handed_off: number;

  @ApiProperty({ description: 'Conversations resolved in the period' })
  resolved: number;

  @ApiProperty({
    description: 'Conversations resolved in the period that had never been handed to a person',
  })
  resolved_without_handoff: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "Median seconds from a new conversation's first customer message to the first answer " +
      '(AI or operator); null without one',
  })
  median_first_response_s: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'Median seconds from a conversation being created to its resolution, over the period’s ' +
      'resolutions; null without one',
  })
  median_resolution_s: number | null;

  @ApiProperty({ type: [ReportDayDto], description: 'Every day of the period, in TEAM_TIME_ZONE' })
  by_day: ReportDayDto[];
}
