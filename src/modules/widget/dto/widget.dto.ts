import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { QueryInt } from '@/common/validation/query-transforms';

/** docs/api.md §7a: a visitor's message is at most this long. */
export const WIDGET_MESSAGE_MAX = 4000;
const TOKEN_MAX = 100;
const MAX_LIMIT = 100;
const MAX_PAGE = 10_000_000;

const VisitorToken = () => (target: object, property: string) => {
  ApiProperty({ description: 'The opaque token POST /sessions gave', maxLength: TOKEN_MAX })(
    target,
    property,
  );
  IsString()(target, property);
  MaxLength(TOKEN_MAX)(target, property);
};

export class WidgetConfigDto {
  @ApiProperty() title: string;
  @ApiProperty({ type: String, nullable: true }) greeting: string | null;
  @ApiProperty({ type: String, nullable: true, example: '#0f766e' }) color: string | null;
}

export class SessionCreateDto {
  @ApiPropertyOptional({
    description: "The token this browser holds: the same visitor when it is still this chat's",
    maxLength: TOKEN_MAX,
  })
  @IsOptional()
  @IsString()
  @MaxLength(TOKEN_MAX)
  visitor_token?: string;
}

export class SessionDto {
  @ApiProperty({ description: 'Keep it (localStorage): it is the visitor, in this chat only' })
  visitor_token: string;

  @ApiProperty({ type: String, nullable: true, description: 'Null before the first message' })
  conversation_id: string | null;
}

export class WidgetMessageCreateDto {
  @VisitorToken()
  visitor_token: string;

  @ApiProperty({ minLength: 1, maxLength: WIDGET_MESSAGE_MAX })
  @IsString()
  @MinLength(1)
  @MaxLength(WIDGET_MESSAGE_MAX)
  message: string;
}

export class WidgetMessagesQueryDto {
  @VisitorToken()
  visitor_token: string;

  @ApiPropertyOptional({ description: 'A message id: only the messages after it' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  after?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 })
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page: number = 1;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: 50 })
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(MAX_LIMIT)
  limit: number = 50;
}

export class StreamTicketCreateDto {
  @VisitorToken()
  visitor_token: string;
}
