import { ApiProperty } from '@nestjs/swagger';
import { IntegrationEntity } from '../entities/integration.entity';

export class PipedreamConfigDto {
  @ApiProperty() app_slug: string;
  @ApiProperty() app_name: string;
  @ApiProperty({ type: String, nullable: true }) app_icon: string | null;
  @ApiProperty() server_url: string;
}

export class PipedreamItemDto {
  @ApiProperty() id: string;
  @ApiProperty({ example: 'pipedream' }) channel_type: string;
  @ApiProperty({ type: PipedreamConfigDto }) config: PipedreamConfigDto;
}

export class PipedreamConfigureResultDto extends PipedreamItemDto {
  @ApiProperty() onboarding_url: string;
}

export function toPipedreamItem(integration: IntegrationEntity): PipedreamItemDto {
  const config = integration.config as unknown as PipedreamConfigDto;
  return {
    id: integration.id,
    channel_type: 'pipedream',
    config: {
      app_slug: config.app_slug,
      app_name: config.app_name,
      app_icon: config.app_icon,
      server_url: config.server_url,
    },
  };
}
