import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { NullableString, RequiredString } from '@/common/validation/string-fields';
import {
  IsObjectOrArray,
  IsPlainObject,
  IsStringOrObject,
  OptionalNotNull,
  STRING_OR_OBJECT_SCHEMA,
} from '@/common/validation/decorators';
import { LIMITS } from '@/common/validation/limits';
import { MAX_CUSTOMER_TEXT } from '../actions/customer-text';
import { AuthSettingsDto } from './auth-config.dto';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
// Scheme-relative ("//host/x") and backslash ("/\\host/x") forms would name another host.
const URL_TEMPLATE = /^(\/(?!\/)|https?:\/\/)[^\s\\]*$/i;
const JSON_VALUE = {
  oneOf: [
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
  ],
};

// Never a dollar sign before a backtick or a quote: Swagger UI's page script is written with
// String.replace, which reads those pairs as replacement patterns.
const PATH_SYNTAX =
  'starts at `$.` (the whole answer), then `.key`, `[0]` or `["key"]` steps; the `$.` may be left out';

/** A tool's `response_mapping`: documents the shape; the service checks it (response-mapping.ts). */
export class ResponseMappingDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '$.data.order',
    description: `Picks the result out of the JSON answer (none: the whole answer): ${PATH_SYNTAX}`,
  })
  path?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    nullable: true,
    example: { status: '$.data.order.status' },
    description: 'Further values by name, each a path into the whole answer',
  })
  fields?: Record<string, string> | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_CUSTOMER_TEXT,
    example: 'Your order {{order_id}} is {{status}}',
    description:
      'What the customer is told when the call succeeds: {{name}} placeholders are filled from ' +
      "fields, the result's own keys and the arguments; with one left unfilled, the built-in " +
      'sentence is said instead',
  })
  success_message?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_CUSTOMER_TEXT,
    example: 'Sorry, I could not find order {{order_id}}',
    description: 'What the customer is told when the call fails, filled the same way',
  })
  error_message?: string | null;
}

export class ToolCreateDto extends AuthSettingsDto {
  @RequiredString(LIMITS.name)
  name: string;

  @ApiProperty({ enum: HTTP_METHODS })
  @IsIn(HTTP_METHODS)
  http_method: (typeof HTTP_METHODS)[number];

  @ApiProperty({
    description:
      'A path appended to the path of the API base URL ("/orders/{order_id}"), or a full http(s) ' +
      'URL; "//host" and backslashes are refused',
    maxLength: LIMITS.url,
  })
  @IsString()
  @MaxLength(LIMITS.url)
  @Matches(URL_TEMPLATE, {
    message: 'must be a path starting with a single / or an http(s) URL, without backslashes',
  })
  url_template: string;

  @NullableString(LIMITS.description)
  description?: string | null;

  @ApiPropertyOptional({ ...JSON_VALUE, description: 'Parameters filled into url_template' })
  @IsOptional()
  @IsObjectOrArray()
  url_params?: unknown;

  @ApiPropertyOptional({ ...JSON_VALUE, description: 'Parameters sent in the body' })
  @IsOptional()
  @IsObjectOrArray()
  body_params?: unknown;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsPlainObject()
  headers_template?: Record<string, unknown> | null;

  @ApiPropertyOptional({ ...STRING_OR_OBJECT_SCHEMA })
  @IsOptional()
  @IsStringOrObject({}, LIMITS.message)
  body_template?: unknown;

  @ApiPropertyOptional({
    type: ResponseMappingDto,
    nullable: true,
    description:
      'What of the JSON answer is the result, and what the customer is told (checked at create: ' +
      'paths, placeholder names, text lengths; other keys are refused)',
  })
  @IsOptional()
  @IsPlainObject()
  response_mapping?: Record<string, unknown> | null;

  @NullableString(LIMITS.name)
  category?: string | null;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @IsBoolean()
  require_human_approval?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'Seconds',
    minimum: 1,
    maximum: 300,
    default: 30,
  })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(300)
  timeout?: number;
}
