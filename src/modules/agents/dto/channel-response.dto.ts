import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CHANNEL_STATUSES,
  CHANNEL_TYPES,
  ChannelStatus,
  ChannelSummary,
  ChannelType,
} from '../entities/agent-channel.entity';

export class ChannelResponseDto {
  @ApiProperty() id: string;
  @ApiProperty({ enum: CHANNEL_TYPES }) type: ChannelType;
  @ApiProperty() name: string;
  @ApiProperty({ enum: CHANNEL_STATUSES }) status: ChannelStatus;

  @ApiProperty({ type: String, nullable: true, description: 'Why the channel is not active' })
  status_reason: string | null;

  @ApiProperty() is_connected: boolean;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The settings of the last connect that are not secret (web chat: allowed_origins, title, ' +
      'greeting, color); secrets are never shown',
  })
  config: Record<string, unknown>;

  @ApiProperty({ type: String, nullable: true }) connected_at: string | null;
}

/** The answer to a connect: the channel, and what the business does next. */
export class ConnectedChannelResponseDto extends ChannelResponseDto {
  @ApiPropertyOptional({
    description: "Web chat: the key pages embed (pk_…); it reaches this channel's widget API only",
  })
  publishable_key?: string;

  @ApiPropertyOptional({ description: 'Web chat: the <script> tag to paste into the pages' })
  embed_snippet?: string;

  @ApiPropertyOptional({ description: 'Meta channels: the callback URL to paste in the Meta app' })
  webhook_url?: string;

  @ApiPropertyOptional({ description: 'Meta channels: the verify token to paste in the Meta app' })
  verify_token?: string;
}

export function toChannelResponse(channel: ChannelSummary): ChannelResponseDto {
  return {
    id: channel.id,
    type: channel.type,
    name: channel.name,
    status: channel.status,
    status_reason: channel.statusReason,
    is_connected: channel.isConnected,
    config:
      channel.type === 'webchat' && channel.isConnected
        ? { allowed_origins: channel.allowedOrigins, ...channel.config }
        : { ...channel.config },
    connected_at: channel.connectedAt?.toISOString() ?? null,
  };
}
