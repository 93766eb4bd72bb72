import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '@/common/validation/decorators';
import { BodyId } from '@/common/validation/id-fields';
import { LIMITS } from '@/common/validation/limits';
import { NullableString } from '@/common/validation/string-fields';

export class PhoneNumberUpdateDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: "One of the team's agents; null unlinks the number",
  })
  @BodyId()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  agent_id?: string | null;

  @NullableString(LIMITS.name, { example: 'Lagos support line' })
  label?: string | null;

  @ApiPropertyOptional({ description: "Route inbound calls to the number's agent" })
  @OptionalNotNull()
  @IsBoolean()
  inbound_enabled?: boolean;
}
