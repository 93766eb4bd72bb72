import { ApiProperty } from '@nestjs/swagger';
import {
  PhoneNumberRequestEntity,
  Region,
  REGIONS,
  REQUEST_STATUSES,
  RequestStatus,
} from '../entities/phone-number-request.entity';

export class PhoneNumberRequestResponseDto {
  @ApiProperty() id: string;
  @ApiProperty({ enum: REQUEST_STATUSES }) status: RequestStatus;
  @ApiProperty() business_name: string;
  @ApiProperty() intended_use: string;
  @ApiProperty({ enum: REGIONS }) region: Region;
  @ApiProperty({ type: 'integer' }) agent_count: number;
  @ApiProperty({ type: 'integer' }) outbound_minutes: number;
  @ApiProperty({ type: String, nullable: true }) submitted_by_agent_id: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Set once fulfilled' })
  e164: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Set once rejected' })
  rejection_reason: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export function toPhoneNumberRequestResponse(
  request: PhoneNumberRequestEntity,
): PhoneNumberRequestResponseDto {
  return {
    id: request.id,
    status: request.status,
    business_name: request.businessName,
    intended_use: request.intendedUse,
    region: request.region,
    agent_count: request.agentCount,
    outbound_minutes: request.outboundMinutes,
    submitted_by_agent_id: request.submittedByAgentId,
    e164: request.e164,
    rejection_reason: request.rejectionReason,
    created_at: request.createdAt.toISOString(),
    updated_at: request.updatedAt.toISOString(),
  };
}
