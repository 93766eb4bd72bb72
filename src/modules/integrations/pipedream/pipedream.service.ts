import { Injectable } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { PipedreamConfigureDto } from '../dto/pipedream-configure.dto';
import {
  PipedreamConfigDto,
  PipedreamConfigureResultDto,
  PipedreamItemDto,
  toPipedreamItem,
} from '../dto/pipedream-response.dto';
import { IntegrationsService } from '../integrations.service';

function titleOf(slug: string): string {
  return slug
    .split(/[_-]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
}

/** Pipedream apps: stored here, connected by the team in the dashboard through the onboarding URL. */
@Injectable()
export class PipedreamService {
  private readonly mcpBaseUrl: string;

  constructor(
    private readonly integrations: IntegrationsService,
    config: AppConfig,
  ) {
    this.mcpBaseUrl = config.integrations.pipedreamMcpUrl;
  }

  async list(teamId: string, agentId: string): Promise<PipedreamItemDto[]> {
    return (await this.integrations.listFamily(teamId, agentId, 'pipedream')).map(toPipedreamItem);
  }

  async configure(
    teamId: string,
    agentId: string,
    input: PipedreamConfigureDto,
  ): Promise<PipedreamConfigureResultDto> {
    const appName = input.app_name ?? titleOf(input.app_slug);
    const config: PipedreamConfigDto = {
      app_slug: input.app_slug,
      app_name: appName,
      app_icon: input.app_icon ?? null,
      server_url: `${this.mcpBaseUrl}/${agentId}/${input.app_slug}`,
    };
    const integration = await this.integrations.add(teamId, agentId, {
      family: 'pipedream',
      type: 'pipedream',
      name: appName,
      description: null,
      status: 'pending',
      isConnected: false,
      config: { ...config },
      secrets: null,
    });
    return {
      ...toPipedreamItem(integration),
      onboarding_url: this.integrations.onboardingUrl(
        agentId,
        `pipedream/${input.app_slug}`,
        integration.id,
      ),
    };
  }

  disconnect(teamId: string, agentId: string, id: string): Promise<void> {
    return this.integrations.remove(teamId, agentId, id, 'pipedream');
  }
}
