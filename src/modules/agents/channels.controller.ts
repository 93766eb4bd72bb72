import { Body, Controller, Param, PipeTransform, Post } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Errors } from '@/common/http/api-error';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { AgentId } from './agent-id.decorator';
import { ChannelsService, ConnectedChannel } from './channels.service';
import {
  ChannelResponseDto,
  ConnectedChannelResponseDto,
  toChannelResponse,
} from './dto/channel-response.dto';
import { MetaPageConnectDto, WhatsAppConnectDto } from './dto/meta-connect.dto';
import { WebchatConnectDto } from './dto/webchat-connect.dto';
import { CHANNEL_TYPES, ChannelType } from './entities/agent-channel.entity';

/** `:type` names one of the channel types; anything else is no channel (404). */
class ChannelTypePipe implements PipeTransform<string, ChannelType> {
  transform(value: string): ChannelType {
    if (!(CHANNEL_TYPES as readonly string[]).includes(value)) {
      throw Errors.notFound('Channel not found');
    }
    return value as ChannelType;
  }
}

const ChannelTypeParam = () =>
  ApiParam({ name: 'type', enum: CHANNEL_TYPES, description: 'The channel type' });

function toConnectedResponse(connected: ConnectedChannel): ConnectedChannelResponseDto {
  return {
    ...toChannelResponse(connected.channel),
    ...(connected.publishableKey ? { publishable_key: connected.publishableKey } : {}),
    ...(connected.embedSnippet ? { embed_snippet: connected.embedSnippet } : {}),
    ...(connected.webhookUrl ? { webhook_url: connected.webhookUrl } : {}),
    ...(connected.verifyToken ? { verify_token: connected.verifyToken } : {}),
  };
}

/** Connecting an agent's channels (docs/api.md §4d); listing them is the agents controller's. */
@ApiTags('agents')
@Controller('agents/:agentId/channels')
export class ChannelsController {
  constructor(private readonly channels: ChannelsService) {}

  @Post('webchat/connect')
  @Endpoint({
    scope: 'channels:write',
    summary:
      'Connect the web chat: the origins that may embed it; answers its publishable key and snippet',
    message: 'Channel connected successfully',
    response: ConnectedChannelResponseDto,
    status: 200,
    errors: [400, 404, 409, 422],
  })
  async connectWebchat(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() input: WebchatConnectDto,
  ): Promise<ConnectedChannelResponseDto> {
    return toConnectedResponse(await this.channels.connectWebchat(teamId, agentId, input));
  }

  @Post('whatsapp/connect')
  @Endpoint({
    scope: 'channels:write',
    summary:
      'Connect WhatsApp (Cloud API): credentials checked with Meta; answers the webhook URL and verify token',
    message: 'Channel connected successfully',
    response: ConnectedChannelResponseDto,
    status: 200,
    errors: [400, 404, 409, 422, 502],
  })
  async connectWhatsApp(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() input: WhatsAppConnectDto,
  ): Promise<ConnectedChannelResponseDto> {
    return toConnectedResponse(await this.channels.connectMeta(teamId, agentId, 'whatsapp', input));
  }

  @Post('messenger/connect')
  @Endpoint({
    scope: 'channels:write',
    summary: 'Connect Messenger (a Facebook page): answers the webhook URL and verify token',
    message: 'Channel connected successfully',
    response: ConnectedChannelResponseDto,
    status: 200,
    errors: [400, 404, 409, 422, 502],
  })
  async connectMessenger(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() input: MetaPageConnectDto,
  ): Promise<ConnectedChannelResponseDto> {
    return toConnectedResponse(
      await this.channels.connectMeta(teamId, agentId, 'messenger', input),
    );
  }

  @Post('instagram/connect')
  @Endpoint({
    scope: 'channels:write',
    summary:
      'Connect Instagram (the page linked to the account): answers the webhook URL and verify token',
    message: 'Channel connected successfully',
    response: ConnectedChannelResponseDto,
    status: 200,
    errors: [400, 404, 409, 422, 502],
  })
  async connectInstagram(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() input: MetaPageConnectDto,
  ): Promise<ConnectedChannelResponseDto> {
    return toConnectedResponse(
      await this.channels.connectMeta(teamId, agentId, 'instagram', input),
    );
  }

  @Post(':type/connect')
  @ChannelTypeParam()
  @Endpoint({
    scope: 'channels:write',
    summary: 'Telephony cannot be connected here (400): calls are not answered yet',
    message: 'Channel connected successfully',
    response: ConnectedChannelResponseDto,
    status: 200,
    errors: [400, 404, 409, 422],
  })
  connectChannel(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Param('type', ChannelTypePipe) type: ChannelType,
  ): Promise<never> {
    return this.channels.refuseConnect(teamId, agentId, type);
  }

  @Post(':type/disconnect')
  @ChannelTypeParam()
  @Endpoint({
    scope: 'channels:write',
    summary: 'Disconnect a channel: its inbound answers 404, nothing more is sent through it',
    message: 'Channel disconnected successfully',
    response: ChannelResponseDto,
    status: 200,
    errors: [404, 409, 422],
  })
  async disconnectChannel(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Param('type', ChannelTypePipe) type: ChannelType,
  ): Promise<ChannelResponseDto> {
    return toChannelResponse(await this.channels.disconnect(teamId, agentId, type));
  }
}
