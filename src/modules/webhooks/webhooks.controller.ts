import { Body, Controller, Delete, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdParam } from '@/common/http/parse-id.pipe';
import { Page } from '@/common/pagination/page';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { DeliveryListQueryDto } from './dto/delivery-list-query.dto';
import { DeliveryResponseDto, toDeliveryResponse } from './dto/delivery-response.dto';
import { WebhookCreateDto } from './dto/webhook-create.dto';
import { WebhookListQueryDto } from './dto/webhook-list-query.dto';
import {
  toWebhookResponse,
  WebhookResponseDto,
  WebhookWithSecretResponseDto,
} from './dto/webhook-response.dto';
import { WebhookUpdateDto } from './dto/webhook-update.dto';
import { WebhooksService } from './webhooks.service';

@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @Endpoint({
    scope: 'webhooks:read',
    summary: "The team's webhook endpoints",
    message: 'Webhooks retrieved successfully',
    response: WebhookResponseDto,
    shape: 'paginated',
    errors: [400],
  })
  async listWebhooks(
    @TeamId() teamId: string,
    @Query() query: WebhookListQueryDto,
  ): Promise<Page<WebhookResponseDto>> {
    return (await this.webhooks.list(teamId, query)).map(toWebhookResponse);
  }

  @Post()
  @Endpoint({
    scope: 'webhooks:write',
    summary: 'Register an endpoint; its signing secret is shown only in this response',
    message: 'Webhook created successfully',
    response: WebhookWithSecretResponseDto,
    status: 201,
    idempotency: 'calls_out',
    errors: [400, 409, 422],
  })
  createWebhook(
    @TeamId() teamId: string,
    @Body() body: WebhookCreateDto,
  ): Promise<WebhookWithSecretResponseDto> {
    return this.webhooks.create(teamId, body);
  }

  @Get(':id')
  @Endpoint({
    scope: 'webhooks:read',
    summary: 'One webhook endpoint',
    message: 'Webhook retrieved successfully',
    response: WebhookResponseDto,
  })
  async getWebhook(
    @TeamId() teamId: string,
    @IdParam('id') id: string,
  ): Promise<WebhookResponseDto> {
    return toWebhookResponse(await this.webhooks.get(teamId, id));
  }

  @Patch(':id')
  @Endpoint({
    scope: 'webhooks:write',
    summary: 'Change an endpoint, or turn it off and on',
    message: 'Webhook updated successfully',
    response: WebhookResponseDto,
    idempotency: 'calls_out',
    errors: [400, 404, 409, 422],
  })
  updateWebhook(
    @TeamId() teamId: string,
    @IdParam('id') id: string,
    @Body() body: WebhookUpdateDto,
  ): Promise<WebhookResponseDto> {
    return this.webhooks.update(teamId, id, body);
  }

  @Delete(':id')
  @Endpoint({
    scope: 'webhooks:write',
    summary: 'Delete an endpoint and its delivery log',
    message: 'Webhook deleted successfully',
    response: null,
  })
  deleteWebhook(@TeamId() teamId: string, @IdParam('id') id: string): Promise<void> {
    return this.webhooks.delete(teamId, id);
  }

  @Post(':id/rotate-secret')
  @Endpoint({
    scope: 'webhooks:write',
    summary: 'Replace the signing secret; the next delivery is signed with the new one',
    message: 'Webhook secret rotated successfully',
    response: WebhookWithSecretResponseDto,
    status: 200,
  })
  rotateWebhookSecret(
    @TeamId() teamId: string,
    @IdParam('id') id: string,
  ): Promise<WebhookWithSecretResponseDto> {
    return this.webhooks.rotateSecret(teamId, id);
  }

  @Post(':id/test')
  @Endpoint({
    scope: 'webhooks:write',
    summary: 'Send a ping event to the endpoint; answers its delivery',
    message: 'Ping queued successfully',
    response: DeliveryResponseDto,
    status: 200,
    errors: [404, 409, 422],
  })
  async testWebhook(
    @TeamId() teamId: string,
    @IdParam('id') id: string,
  ): Promise<DeliveryResponseDto> {
    return toDeliveryResponse(await this.webhooks.ping(teamId, id));
  }

  @Get(':id/deliveries')
  @Endpoint({
    scope: 'webhooks:read',
    summary: "The endpoint's deliveries, newest first",
    message: 'Deliveries retrieved successfully',
    response: DeliveryResponseDto,
    shape: 'paginated',
    errors: [400, 404],
  })
  async listWebhookDeliveries(
    @TeamId() teamId: string,
    @IdParam('id') id: string,
    @Query() query: DeliveryListQueryDto,
  ): Promise<Page<DeliveryResponseDto>> {
    return (await this.webhooks.listDeliveries(teamId, id, query)).map(toDeliveryResponse);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @Endpoint({
    scope: 'webhooks:write',
    summary: 'Send a delivery again (whatever its status), with a fresh retry window',
    message: 'Redelivery queued successfully',
    response: DeliveryResponseDto,
    status: 202,
    errors: [404, 409, 422],
  })
  async redeliverWebhookDelivery(
    @TeamId() teamId: string,
    @IdParam('id') id: string,
    @IdParam('deliveryId') deliveryId: string,
  ): Promise<DeliveryResponseDto> {
    return toDeliveryResponse(await this.webhooks.redeliver(teamId, id, deliveryId));
  }
}
