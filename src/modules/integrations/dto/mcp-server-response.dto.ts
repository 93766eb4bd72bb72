import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IntegrationEntity } from '../entities/integration.entity';
import { AUTH_TYPES, AuthType } from './auth-config.dto';
import { MCP_TRANSPORTS, McpTransport } from './mcp-server-configure.dto';

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

export function toMcpServerItem(integration: IntegrationEntity): McpServerItemDto {
  const config = integration.config as unknown as McpServerConfigDto;
  return {
    id: integration.id,
    config: {
      name: config.name,
      server_url: config.server_url,
      transport: config.transport,
      auth_type: config.auth_type,
    },
  };
}
