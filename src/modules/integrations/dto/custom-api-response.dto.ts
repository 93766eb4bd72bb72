import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IntegrationEntity } from '../entities/integration.entity';
import { AUTH_TYPES, AuthType } from './auth-config.dto';

export class CustomApiConfigDto {
  @ApiProperty() name: string;
  @ApiPropertyOptional({ description: 'Left out when the API has none' }) base_url?: string;
  @ApiProperty({ enum: AUTH_TYPES }) auth_type: AuthType;
}

export class CustomApiItemDto {
  @ApiProperty() id: string;
  @ApiProperty({ type: CustomApiConfigDto }) config: CustomApiConfigDto;
}

export function toCustomApiItem(integration: IntegrationEntity): CustomApiItemDto {
  const config = integration.config as {
    name: string;
    base_url: string | null;
    auth_type: AuthType;
  };
  return {
    id: integration.id,
    config: {
      name: config.name,
      ...(config.base_url ? { base_url: config.base_url } : {}),
      auth_type: config.auth_type,
    },
  };
}
