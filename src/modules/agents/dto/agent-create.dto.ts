import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsTimeZone } from '@/common/validation/is-time-zone';
import { LIMITS } from '@/common/validation/limits';
import { Persona, PERSONAS } from '../entities/agent.entity';

export class AgentCreateDto {
  @ApiProperty({ description: 'An own or public workflow' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  workflow_id: string;

  @ApiProperty({ maxLength: LIMITS.name })
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.name)
  name: string;

  @ApiProperty({ maxLength: LIMITS.description })
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.description)
  description: string;

  @ApiPropertyOptional({ example: 'en', maxLength: 64, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  language?: string | null;

  @ApiPropertyOptional({ enum: PERSONAS, nullable: true })
  @IsOptional()
  @IsIn(PERSONAS)
  persona?: Persona | null;

  @ApiPropertyOptional({ example: 'Africa/Lagos', nullable: true })
  @IsOptional()
  @IsTimeZone()
  timezone?: string | null;

  @ApiPropertyOptional({ description: 'Logo URL', maxLength: LIMITS.url, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.url)
  logo?: string | null;

  @ApiPropertyOptional({ maxLength: LIMITS.name, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.name)
  business_name?: string | null;

  @ApiPropertyOptional({ maxLength: LIMITS.description, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.description)
  business_address?: string | null;

  @ApiPropertyOptional({ maxLength: LIMITS.name, nullable: true })
  @IsOptional()
  @IsEmail()
  @MaxLength(LIMITS.name)
  business_email?: string | null;

  @ApiPropertyOptional({ maxLength: LIMITS.description, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.description)
  business_description?: string | null;

  @ApiPropertyOptional({ maxLength: LIMITS.name, nullable: true })
  @IsOptional()
  @IsEmail()
  @MaxLength(LIMITS.name)
  escalation_email?: string | null;
}
