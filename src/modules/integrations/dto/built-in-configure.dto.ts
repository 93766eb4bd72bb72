import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { BUILT_IN_CONNECTOR_TYPES, BuiltInConnectorType } from '../connector-catalog';
import { HEADER_VALUE, HEADER_VALUE_PROBLEM } from '../header-syntax';

/** Credentials travel to the provider in a header: refused here rather than failing there. */
const headerSafe = () => Matches(HEADER_VALUE, { message: HEADER_VALUE_PROBLEM });

export class BuiltInConfigureDto {
  @ApiProperty({ enum: BUILT_IN_CONNECTOR_TYPES })
  @IsIn(BUILT_IN_CONNECTOR_TYPES)
  type: BuiltInConnectorType;

  @ApiPropertyOptional({ description: 'API token (bumpa); stored encrypted', maxLength: 4096 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(4096)
  @headerSafe()
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
  @headerSafe()
  secret_key?: string;

  @ApiPropertyOptional({ example: 'NGN', description: 'ISO 4217 code' })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'must be a three-letter ISO 4217 code such as NGN' })
  currency?: string;
}
