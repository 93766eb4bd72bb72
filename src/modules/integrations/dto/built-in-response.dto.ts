import { ApiProperty } from '@nestjs/swagger';
import { BUILT_IN_CONNECTOR_TYPES, BuiltInConnectorType } from '../connector-catalog';

export class BuiltInConnectorRowDto {
  @ApiProperty({ type: String, nullable: true, description: 'null when not configured' }) id:
    string | null;
  @ApiProperty({ enum: BUILT_IN_CONNECTOR_TYPES }) type: BuiltInConnectorType;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['connected', 'pending', 'not_configured'] }) status: string;
  @ApiProperty() is_connected: boolean;
}

export class ConfigureResultDto {
  @ApiProperty() id: string;
  @ApiProperty() type: string;
  @ApiProperty({ enum: ['connected', 'pending'] }) status: string;
  @ApiProperty() is_connected: boolean;
  @ApiProperty({
    description:
      'OAuth connectors (google_*): the dashboard page that finishes the connection; ' +
      'credential connectors: the dashboard page of the integration',
  })
  onboarding_url: string;
}
