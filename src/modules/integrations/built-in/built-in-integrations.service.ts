import { Injectable } from '@nestjs/common';
import { SecretBox } from '@/config/secret-box';
import { Errors } from '@/common/http/api-error';
import { WritePhase } from '@/common/idempotency/write-phase';
import { Database } from '@/database/database.service';
import { isUniqueViolation } from '@/database/errors';
import { BUILT_IN_CONNECTOR_TYPES, Connector, CONNECTORS } from '../connector-catalog';
import { BuiltInConfigureDto } from '../dto/built-in-configure.dto';
import { BuiltInConnectorRowDto, ConfigureResultDto } from '../dto/built-in-response.dto';
import { IntegrationEntity } from '../entities/integration.entity';
import { IntegrationsRepository } from '../integrations.repository';
import { IntegrationsService, NewIntegration } from '../integrations.service';
import { ProviderClient } from './providers/provider-client';
import { PROVIDERS } from './providers/providers';

const BODY_FIELDS = ['token', 'public_key', 'secret_key', 'currency'] as const;

function allowedFields(connector: Connector): string[] {
  return connector.configFields.map((field) => field.key);
}

/** The built-in connectors (family `bimpeai`): one per type and agent. */
@Injectable()
export class BuiltInIntegrationsService {
  constructor(
    private readonly db: Database,
    private readonly integrations: IntegrationsService,
    private readonly repository: IntegrationsRepository,
    private readonly secretBox: SecretBox,
    private readonly writePhase: WritePhase,
    private readonly providers: ProviderClient,
  ) {}

  async list(teamId: string, agentId: string): Promise<BuiltInConnectorRowDto[]> {
    const configured = await this.integrations.listFamily(teamId, agentId, 'bimpeai');
    return BUILT_IN_CONNECTOR_TYPES.map((type) => {
      const integration = configured.find((candidate) => candidate.type === type);
      return {
        id: integration?.id ?? null,
        type,
        name: CONNECTORS[type].name,
        status: integration?.status ?? 'not_configured',
        is_connected: integration?.isConnected ?? false,
      };
    });
  }

  /**
   * Creates or updates the connector. A secret in the body is first checked with the provider,
   * holding no transaction (refused: 400, provider failing: 502, nothing stored either way);
   * then it is sealed and stored, and the connector is connected. Without one, or for OAuth
   * connectors, it waits in `pending` for the team to finish in the dashboard.
   */
  async configure(
    teamId: string,
    agentId: string,
    input: BuiltInConfigureDto,
  ): Promise<ConfigureResultDto> {
    const connector = CONNECTORS[input.type];
    const unexpected = BODY_FIELDS.filter(
      (field) => input[field] !== undefined && !allowedFields(connector).includes(field),
    );
    if (unexpected.length > 0) {
      throw Errors.validation(unexpected.map((field) => `${field}: is not used by ${input.type}`));
    }
    await this.integrations.requireAgent(teamId, agentId);
    await this.checkCredentials(connector, input);
    const write = () => this.writePhase.run(() => this.upsert(teamId, agentId, input));
    try {
      return await write();
    } catch (error) {
      // Two first configurations raced; the loser now finds the winner's record and updates it.
      if (isUniqueViolation(error)) {
        return write();
      }
      throw error;
    }
  }

  private async checkCredentials(connector: Connector, input: BuiltInConfigureDto): Promise<void> {
    const provider = PROVIDERS[connector.type];
    const secret = provider ? input[provider.secretField] : undefined;
    if (!provider || !secret) {
      return;
    }
    const check = await provider.check(this.providers, secret);
    if (check.kind === 'refused') {
      throw Errors.validation([`${provider.secretField}: refused by ${connector.type}`]);
    }
    if (check.kind === 'unreachable') {
      throw Errors.upstream(
        `${connector.name} could not check the ${provider.secretField}: it ${check.reason}`,
      );
    }
  }

  private async upsert(
    teamId: string,
    agentId: string,
    input: BuiltInConfigureDto,
  ): Promise<ConfigureResultDto> {
    const connector = CONNECTORS[input.type];
    const existing = await this.repository.findByType(teamId, agentId, input.type);
    const secrets: Record<string, string> = {
      ...this.secretBox.openJson<Record<string, string>>(existing?.secrets ?? null),
    };
    for (const field of connector.secretFields) {
      const value = input[field];
      if (value) {
        secrets[field] = value;
      }
    }
    const connected =
      connector.auth === 'credentials' && connector.secretFields.every((field) => secrets[field]);
    const fields: NewIntegration = {
      family: 'bimpeai',
      type: connector.type,
      name: connector.name,
      description: null,
      status: connected ? 'connected' : 'pending',
      isConnected: connected,
      config: {
        ...(existing?.config ?? {}),
        ...(input.public_key !== undefined ? { public_key: input.public_key } : {}),
        ...(input.currency !== undefined ? { currency: input.currency } : {}),
      },
      secrets: this.secretBox.sealJson(secrets),
    };
    const integration = existing
      ? await this.refresh(existing, fields, connector)
      : await this.integrations.add(teamId, agentId, fields, connector.actions);
    return {
      id: integration.id,
      type: integration.type,
      status: integration.status,
      is_connected: integration.isConnected,
      onboarding_url:
        connector.auth === 'oauth'
          ? this.integrations.onboardingUrl(agentId, connector.type, integration.id)
          : this.integrations.integrationPageUrl(agentId, connector.type, integration.id),
    };
  }

  disconnect(teamId: string, agentId: string, id: string): Promise<void> {
    return this.integrations.remove(teamId, agentId, id, 'bimpeai');
  }

  private refresh(
    existing: IntegrationEntity,
    fields: NewIntegration,
    connector: Connector,
  ): Promise<IntegrationEntity> {
    const updated: IntegrationEntity = { ...existing, ...fields, updatedAt: new Date() };
    return this.db.transaction(async () => {
      await this.repository.update(existing.teamId, existing.id, {
        ...fields,
        updatedAt: updated.updatedAt,
      });
      await this.integrations.addMissingActions(updated, connector.actions);
      return updated;
    });
  }
}
