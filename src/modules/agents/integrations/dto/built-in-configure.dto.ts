import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { BUILT_IN_CONNECTOR_TYPES, BuiltInConnectorType } from '../connector-catalog';

export class BuiltInConfigureDto {
  @ApiProperty({ enum: BUILT_IN_CONNECTOR_TYPES })
  @IsIn(BUILT_IN_CONNECTOR_TYPES)
  type: BuiltInConnectorType;

  @ApiPropertyOptional({ description: 'API token (bumpa); stored encrypted', maxLength: 4096 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(4096)
  token?: string;

  @ApiPropertyOptional({ maxLength: 1024 })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  public_key?: string;

  @ApiPropertyOptional({
    description: 'Secret key (stripe, paystack); stored encrypted',
    maxLength: 4096,
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(4096)
  secret_key?: string;

  @ApiPropertyOptional({ example: 'NGN', description: 'ISO 4217 code' })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'must be a three-letter ISO 4217 code such as NGN' })
  currency?: string;
}

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
