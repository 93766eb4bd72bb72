import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { RequiredString } from '@/common/validation/string-fields';
import { LIMITS } from '@/common/validation/limits';
import { AuthSettingsDto } from './auth-config.dto';

export const MCP_TRANSPORTS = ['http_sse', 'streamable_http'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

export class McpServerConfigureDto extends AuthSettingsDto {
  @RequiredString(LIMITS.name)
  name: string;

  @ApiProperty({ description: 'Public http(s) URL of the MCP endpoint', maxLength: LIMITS.url })
  @IsString()
  @MaxLength(LIMITS.url)
  @Matches(/^https?:\/\/\S+$/i, { message: 'must be an http(s) URL' })
  server_url: string;

  @ApiPropertyOptional({ enum: MCP_TRANSPORTS, default: 'streamable_http' })
  @IsOptional()
  @IsIn(MCP_TRANSPORTS)
  transport?: McpTransport | null;
}
