import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsPlainObject } from '@/common/validation/decorators';

export const AUTH_TYPES = ['none', 'bearer', 'basic', 'api_key', 'custom'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];
export type AuthConfig = Record<string, unknown>;

/** The authentication part shared by custom APIs, their tools and MCP servers. */
export class AuthSettingsDto {
  @ApiPropertyOptional({ enum: AUTH_TYPES, default: 'none' })
  @IsOptional()
  @IsIn(AUTH_TYPES)
  auth_type?: AuthType | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'bearer: {token}; basic: {username, password}; api_key: {key, header_name?}; custom: {headers}. ' +
      'Stored encrypted and never returned.',
  })
  @IsOptional()
  @IsPlainObject()
  auth_config?: AuthConfig | null;
}
