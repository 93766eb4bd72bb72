import { ApiProperty } from '@nestjs/swagger';
import {
  CHANNEL_TYPES,
  ChannelStatus,
  ChannelSummary,
  ChannelType,
} from '../entities/agent-channel.entity';

export class ChannelResponseDto {
  @ApiProperty() id: string;
  @ApiProperty({ enum: CHANNEL_TYPES }) type: ChannelType;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['active', 'inactive'] }) status: ChannelStatus;
  @ApiProperty() is_connected: boolean;
}

export function toChannelResponse(channel: ChannelSummary): ChannelResponseDto {
  return {
    id: channel.id,
    type: channel.type,
    name: channel.name,
    status: channel.status,
    is_connected: channel.isConnected,
  };
}
