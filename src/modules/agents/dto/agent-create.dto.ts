import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsIn, IsOptional, IsTimeZone, MaxLength } from 'class-validator';
import { NullableHttpUrl, NullableString, RequiredString } from '@/common/validation/string-fields';
import { LIMITS } from '@/common/validation/limits';
import { BodyId } from '@/common/validation/id-fields';
import { Persona, PERSONAS } from '../entities/agent.entity';

export class AgentCreateDto {
  @BodyId()
  @RequiredString(64, { description: 'An own or public workflow' })
  workflow_id: string;

  @RequiredString(LIMITS.name)
  name: string;

  @RequiredString(LIMITS.description)
  description: string;

  @NullableString(64, { example: 'en' })
  language?: string | null;

  @ApiPropertyOptional({ enum: PERSONAS, nullable: true })
  @IsOptional()
  @IsIn(PERSONAS)
  persona?: Persona | null;

  @ApiPropertyOptional({ type: String, example: 'Africa/Lagos', nullable: true })
  @IsOptional()
  @IsTimeZone({ message: 'must be an IANA time zone such as Africa/Lagos' })
  timezone?: string | null;

  @NullableHttpUrl({ description: 'Logo URL, http(s)' })
  logo?: string | null;

  @NullableString(LIMITS.name)
  business_name?: string | null;

  @NullableString(LIMITS.description)
  business_address?: string | null;

  @ApiPropertyOptional({ type: String, format: 'email', maxLength: LIMITS.name, nullable: true })
  @IsOptional()
  @IsEmail()
  @MaxLength(LIMITS.name)
  business_email?: string | null;

  @NullableString(LIMITS.description)
  business_description?: string | null;

  @ApiPropertyOptional({ type: String, format: 'email', maxLength: LIMITS.name, nullable: true })
  @IsOptional()
  @IsEmail()
  @MaxLength(LIMITS.name)
  escalation_email?: string | null;

  @ApiPropertyOptional({ description: 'Whether a hand-off pauses the AI (default true)' })
  @IsOptional()
  @IsBoolean()
  handoff_pauses_ai?: boolean;

  @ApiPropertyOptional({
    description: "Whether an operator's message pauses the AI (default true)",
  })
  @IsOptional()
  @IsBoolean()
  operator_reply_pauses_ai?: boolean;
}
