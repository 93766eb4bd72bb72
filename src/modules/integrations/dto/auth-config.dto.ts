import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { IsPlainObject, OptionalNotNull } from '@/common/validation/decorators';

export const AUTH_TYPES = ['none', 'bearer', 'basic', 'api_key', 'custom'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

export const MAX_SECRET_LENGTH = 4096;
export const MAX_HEADER_NAME_LENGTH = 128;

/** The settings of every auth type; which of them apply depends on `auth_type`. */
export type AuthConfig = {
  token?: string;
  username?: string;
  password?: string;
  api_key?: string;
  header_name?: string;
  headers?: Record<string, unknown>;
};

const secret = (description: string) =>
  ApiPropertyOptional({ type: String, maxLength: MAX_SECRET_LENGTH, description });

export class AuthConfigDto implements AuthConfig {
  @secret('bearer: the bearer token. custom: the value sent in header_name')
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_SECRET_LENGTH)
  token?: string;

  @secret('basic')
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_SECRET_LENGTH)
  username?: string;

  @secret('basic')
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_SECRET_LENGTH)
  password?: string;

  @secret('api_key: the key, sent in header_name')
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_SECRET_LENGTH)
  api_key?: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: MAX_HEADER_NAME_LENGTH,
    description: 'api_key: the header of the key (default X-Api-Key). custom: the header of token',
    example: 'X-Api-Key',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_HEADER_NAME_LENGTH)
  header_name?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'custom: further headers sent with every call, by name',
  })
  @OptionalNotNull()
  @IsPlainObject()
  headers?: Record<string, unknown>;
}

/** The authentication part shared by custom APIs, their tools and MCP servers. */
export class AuthSettingsDto {
  @ApiPropertyOptional({ enum: AUTH_TYPES, default: 'none' })
  @IsOptional()
  @IsIn(AUTH_TYPES)
  auth_type?: AuthType | null;

  @ApiPropertyOptional({
    type: AuthConfigDto,
    nullable: true,
    description:
      'By auth_type: bearer {token}; basic {username, password}; api_key {api_key, header_name?}; ' +
      'custom {header_name, token, headers?}. Stored encrypted and never returned.',
  })
  @IsOptional()
  @IsPlainObject()
  @ValidateNested()
  @Type(() => AuthConfigDto)
  auth_config?: AuthConfigDto | null;
}
