import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
} from 'class-validator';
import { QueryBool } from '@/common/validation/query-transforms';
import { CONVERSATION_CHANNELS, PRIORITIES, Priority } from '../entities/conversation.entity';

const CHANNEL_FILTERS = [
  ...CONVERSATION_CHANNELS,
  ...CONVERSATION_CHANNELS.map((c) => `test_${c}`),
];

/** The filters the conversation lists and the counts share (all but `status`). */
export class ConversationFiltersDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Only this agent's conversations" })
  @IsOptional()
  @IsUUID()
  agent_id?: string;

  @ApiPropertyOptional({
    description: 'An assignee id, or `none` for unassigned conversations',
    minLength: 1,
    maxLength: 255,
    pattern: '\\S',
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @Matches(/\S/)
  assignee_id?: string;

  @ApiPropertyOptional({ description: 'Conversations carrying this label', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  label?: string;

  @ApiPropertyOptional({
    enum: CHANNEL_FILTERS,
    description: 'A channel type for live conversations; test_<type> for test-channel ones',
  })
  @IsOptional()
  @IsIn(CHANNEL_FILTERS)
  channel?: string;

  @ApiPropertyOptional({ type: Boolean })
  @QueryBool()
  @IsOptional()
  @IsBoolean()
  is_test_channel?: boolean;

  @ApiPropertyOptional({ type: Boolean })
  @QueryBool()
  @IsOptional()
  @IsBoolean()
  is_ai_chat_paused?: boolean;

  @ApiPropertyOptional({ type: Boolean })
  @QueryBool()
  @IsOptional()
  @IsBoolean()
  needs_attention?: boolean;

  @ApiPropertyOptional({ enum: PRIORITIES })
  @IsOptional()
  @IsIn(PRIORITIES)
  priority?: Priority;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only conversations updated since' })
  @IsOptional()
  @IsISO8601({ strict: true })
  updated_after?: string;
}

const COUNT = { type: 'integer', minimum: 0 } as const;

export class ConversationCountsDto {
  @ApiProperty(COUNT) open: number;
  @ApiProperty(COUNT) pending: number;
  @ApiProperty(COUNT) snoozed: number;
  @ApiProperty(COUNT) resolved: number;
  @ApiProperty(COUNT) needs_attention: number;
  @ApiProperty(COUNT) unassigned: number;
}
