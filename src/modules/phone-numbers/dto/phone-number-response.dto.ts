import { ApiProperty } from '@nestjs/swagger';
import { PhoneNumberEntity } from '../entities/phone-number.entity';

/** A number as lists show it. */
export class PhoneNumberSummaryDto {
  @ApiProperty() id: string;
  @ApiProperty({ example: '+14155550100' }) e164: string;
  @ApiProperty({ type: String, nullable: true }) label: string | null;
  @ApiProperty({ type: String, nullable: true }) agent_id: string | null;
}

export class PhoneNumberResponseDto extends PhoneNumberSummaryDto {
  @ApiProperty() inbound_enabled: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export function toPhoneNumberSummary(number: PhoneNumberEntity): PhoneNumberSummaryDto {
  return { id: number.id, e164: number.e164, label: number.label, agent_id: number.agentId };
}

export function toPhoneNumberResponse(number: PhoneNumberEntity): PhoneNumberResponseDto {
  return {
    ...toPhoneNumberSummary(number),
    inbound_enabled: number.inboundEnabled,
    created_at: number.createdAt.toISOString(),
    updated_at: number.updatedAt.toISOString(),
  };
}
