import { ApiProperty } from '@nestjs/swagger';
import { AppConfig } from '@/config/app-config';
import { testStartMessage } from '../deployment/test-channel-code';

class WhatsappTestChannel {
  @ApiProperty() is_enabled: boolean;
  @ApiProperty() start_message: string;
  @ApiProperty({ type: String, nullable: true }) phone_number: string | null;
  @ApiProperty({ type: String, nullable: true }) url: string | null;
}

class InstagramTestChannel {
  @ApiProperty() is_enabled: boolean;
  @ApiProperty() start_message: string;
  @ApiProperty({ type: String, nullable: true }) username: string | null;
  @ApiProperty({ type: String, nullable: true }) url: string | null;
}

class MessengerTestChannel {
  @ApiProperty() is_enabled: boolean;
  @ApiProperty() start_message: string;
  @ApiProperty({ type: String, nullable: true }) page: string | null;
  @ApiProperty({ type: String, nullable: true }) url: string | null;
}

class TelephonyTestChannel {
  @ApiProperty() is_enabled: boolean;
}

class TestChannels {
  @ApiProperty({ type: WhatsappTestChannel }) whatsapp: WhatsappTestChannel;
  @ApiProperty({ type: InstagramTestChannel }) instagram: InstagramTestChannel;
  @ApiProperty({ type: MessengerTestChannel }) messenger: MessengerTestChannel;
  @ApiProperty({ type: TelephonyTestChannel }) telephony: TelephonyTestChannel;
}

export class AgentTestCodeResponseDto {
  @ApiProperty({ example: 'K7P2QX9D' }) code: string;
  @ApiProperty({ type: TestChannels }) channels: TestChannels;
}

export type TestChannelSettings = AppConfig['agents']['testChannels'];

/** Channels the agent reaches on its own, beyond the installation's shared test endpoints. */
export interface ConnectedChannels {
  telephony: boolean;
}

/**
 * How a person reaches an agent under test: send its start message to the shared test number,
 * account or page. Channels without a configured test endpoint are disabled, with null links.
 */
export function agentTestCode(
  code: string,
  settings: TestChannelSettings,
  connected: ConnectedChannels,
): AgentTestCodeResponseDto {
  const start = testStartMessage(code);
  const phone = settings.whatsappNumber ?? null;
  const username = settings.instagramUsername ?? null;
  const page = settings.messengerPage ?? null;
  return {
    code,
    channels: {
      whatsapp: {
        is_enabled: phone !== null,
        start_message: start,
        phone_number: phone,
        url: phone && `https://wa.me/${phone.replace(/^\+/, '')}?text=${encodeURIComponent(start)}`,
      },
      instagram: {
        is_enabled: username !== null,
        start_message: start,
        username,
        url: username && `https://ig.me/m/${username}`,
      },
      messenger: {
        is_enabled: page !== null,
        start_message: start,
        page,
        url: page && `https://m.me/${page}?ref=${encodeURIComponent(start)}`,
      },
      telephony: { is_enabled: Boolean(settings.telephonyNumber) || connected.telephony },
    },
  };
}
