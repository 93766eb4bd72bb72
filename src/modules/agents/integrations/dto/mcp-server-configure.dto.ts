import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { RequiredString } from '@/common/validation/string-fields';
import { LIMITS } from '@/common/validation/limits';
import { AUTH_TYPES, AuthSettingsDto, AuthType } from './auth-config.dto';

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

export class McpServerConfigDto {
  @ApiProperty() name: string;
  @ApiProperty() server_url: string;
  @ApiProperty({ enum: MCP_TRANSPORTS }) transport: McpTransport;
  @ApiProperty({ enum: AUTH_TYPES }) auth_type: AuthType;
}

export class McpServerItemDto {
  @ApiProperty() id: string;
  @ApiProperty({ type: McpServerConfigDto }) config: McpServerConfigDto;
}

export class McpDiscoverResultDto {
  @ApiProperty({ description: 'Tools the server lists' }) discovered: number;
  @ApiProperty({ description: 'New actions' }) created: number;
  @ApiProperty({ description: 'Existing actions refreshed' }) updated: number;
  @ApiProperty({ description: 'Actions disabled because the server no longer lists them' })
  disabled: number;
}

export class McpTestResultDto {
  @ApiProperty() success: boolean;
  @ApiProperty() message: string;
  @ApiPropertyOptional() error?: string;
  @ApiPropertyOptional() tools_count?: number;
}
