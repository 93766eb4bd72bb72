import { Injectable } from '@nestjs/common';
import { SecretBox } from '@/config/secret-box';
import { Errors } from '@/common/http/api-error';
import { newId } from '@/common/ids';
import { WritePhase } from '@/common/idempotency/write-phase';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { Page } from '@/common/pagination/page';
import { definedFields } from '@/common/validation/defined-fields';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { newWebhookSecret } from './delivery/signature';
import { DeliveryListQueryDto } from './dto/delivery-list-query.dto';
import { WebhookCreateDto } from './dto/webhook-create.dto';
import { WebhookListQueryDto } from './dto/webhook-list-query.dto';
import {
  toWebhookResponse,
  WebhookResponseDto,
  WebhookWithSecretResponseDto,
} from './dto/webhook-response.dto';
import { WebhookUpdateDto } from './dto/webhook-update.dto';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from './entities/webhook-endpoint.entity';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEvents } from './webhook-events.service';
import { DeliveryWorker } from './delivery/delivery-worker.service';

const NOT_FOUND = 'Webhook not found';

@Injectable()
export class WebhooksService {
  private readonly retryMaxAgeMs: number;
  private readonly maxEndpoints: number;

  constructor(
    private readonly db: Database,
    private readonly writePhase: WritePhase,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly events: WebhookEvents,
    private readonly worker: DeliveryWorker,
    private readonly secrets: SecretBox,
    private readonly outbound: OutboundHttp,
    config: AppConfig,
  ) {
    this.retryMaxAgeMs = config.webhooks.retryMaxAgeS * 1000;
    this.maxEndpoints = config.webhooks.maxEndpoints;
  }

  /** Checks the URL first (a DNS lookup, no transaction held), then writes (`calls_out`). */
  async create(teamId: string, input: WebhookCreateDto): Promise<WebhookWithSecretResponseDto> {
    await this.assertCallable(input.url);
    const now = new Date();
    const secret = newWebhookSecret();
    const endpoint: WebhookEndpointEntity = {
      id: newId(),
      teamId,
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      isEnabled: true,
      disabledReason: null,
      secretSealed: this.secrets.seal(secret),
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    };
    return this.writePhase.run(async () => {
      // The team's row is the quota's lock: two creates at the limit cannot both pass the count.
      await this.db.lockRow('teams', teamId);
      if ((await this.endpoints.countOwned(teamId)) >= this.maxEndpoints) {
        throw Errors.forbidden(
          `Webhook endpoint limit reached: a team may have ${this.maxEndpoints} endpoints (WEBHOOK_MAX_ENDPOINTS)`,
        );
      }
      await this.endpoints.insert(endpoint);
      return { ...toWebhookResponse(endpoint), secret };
    });
  }

  list(teamId: string, query: WebhookListQueryDto): Promise<Page<WebhookEndpointEntity>> {
    return this.endpoints.list(teamId, query);
  }

  async get(teamId: string, id: string): Promise<WebhookEndpointEntity> {
    const endpoint = await this.endpoints.findOwned(teamId, id);
    if (!endpoint) {
      throw Errors.notFound(NOT_FOUND);
    }
    return endpoint;
  }

  /** Like create, checks a new URL before its write phase (`calls_out`). */
  async update(teamId: string, id: string, input: WebhookUpdateDto): Promise<WebhookResponseDto> {
    await this.get(teamId, id);
    if (input.url !== undefined) {
      await this.assertCallable(input.url);
    }
    const reenabled = input.is_enabled === true;
    return this.writePhase.run(async () => {
      const changed = await this.endpoints.update(teamId, id, {
        ...definedFields({
          url: input.url,
          events: input.events,
          description: input.description,
          isEnabled: input.is_enabled,
        }),
        ...(reenabled ? { disabledReason: null, failingSince: null } : {}),
        updatedAt: new Date(),
      });
      if (!changed) {
        throw Errors.notFound(NOT_FOUND);
      }
      return toWebhookResponse(await this.get(teamId, id));
    });
  }

  async delete(teamId: string, id: string): Promise<void> {
    if (!(await this.endpoints.delete(teamId, id))) {
      throw Errors.notFound(NOT_FOUND);
    }
  }

  /** A new secret at once: the next delivery is signed with it, the old one no longer verifies. */
  async rotateSecret(teamId: string, id: string): Promise<WebhookWithSecretResponseDto> {
    return this.db.transaction(async () => {
      await this.get(teamId, id);
      const secret = newWebhookSecret();
      await this.endpoints.update(teamId, id, {
        secretSealed: this.secrets.seal(secret),
        updatedAt: new Date(),
      });
      return { ...toWebhookResponse(await this.get(teamId, id)), secret };
    });
  }

  async ping(teamId: string, id: string): Promise<WebhookDeliveryEntity> {
    const endpoint = await this.requireEnabled(teamId, id);
    return this.events.ping(endpoint);
  }

  async listDeliveries(
    teamId: string,
    id: string,
    query: DeliveryListQueryDto,
  ): Promise<Page<WebhookDeliveryEntity>> {
    await this.get(teamId, id);
    return this.deliveries.list(teamId, id, query);
  }

  async redeliver(teamId: string, id: string, deliveryId: string): Promise<WebhookDeliveryEntity> {
    await this.requireEnabled(teamId, id);
    const delivery = await this.deliveries.findOwned(teamId, id, deliveryId);
    if (!delivery) {
      throw Errors.notFound('Delivery not found');
    }
    await this.deliveries.requeue(teamId, delivery.id, new Date(Date.now() + this.retryMaxAgeMs));
    this.db.afterCommit(() => this.worker.schedule(delivery));
    // The webhook (and its deliveries) may have been deleted meanwhile: gone, as if never found.
    const requeued = await this.deliveries.findOwned(teamId, id, deliveryId);
    if (!requeued) {
      throw Errors.notFound('Delivery not found');
    }
    return requeued;
  }

  private async requireEnabled(teamId: string, id: string): Promise<WebhookEndpointEntity> {
    const endpoint = await this.get(teamId, id);
    if (!endpoint.isEnabled) {
      throw Errors.conflict('The webhook is disabled: enable it first');
    }
    return endpoint;
  }

  private async assertCallable(url: string): Promise<void> {
    const refusal = await this.outbound.refusal(url);
    if (refusal) {
      throw Errors.validation([`url: ${refusal}`]);
    }
  }
}
