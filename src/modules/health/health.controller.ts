import { Controller, Get, HttpException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { HealthCheckResult, HealthCheckService } from '@nestjs/terminus';
import { ApiErrorResponse, ApiHeadersTooLarge } from '@/common/http/api-docs.decorators';
import { Errors } from '@/common/http/api-error';
import { responseHeaders } from '@/common/http/response-headers.docs';
import { SkipRateLimit } from '@/common/rate-limit/rate-limit.guard';
import { Public } from '@/common/http/public.decorator';
import { RawResponse } from '@/common/http/response-message.decorator';
import { AnyQuery } from '@/common/validation/query-parameters';
import { DatabaseHealthIndicator } from './database.health';
import { RedisHealthIndicator } from './redis.health';

const PING_TIMEOUT_MS = 1500;
const UNTHROTTLED_HEADERS = responseHeaders(200, { rateLimited: false });
const COMPONENT_STATES: SchemaObject = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['up', 'down'] } },
    required: ['status'],
    additionalProperties: true,
  },
};
const READINESS_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok'] },
    info: COMPONENT_STATES,
    error: COMPONENT_STATES,
    details: COMPONENT_STATES,
  },
  required: ['status', 'details'],
};

@ApiTags('health')
@ApiHeadersTooLarge()
@Public()
// Probes must answer whatever the state of Redis, which holds the rate-limit counters.
@SkipRateLimit()
// Outside the API prefix: the strict query rule is the API's, not the probes'.
@AnyQuery()
@RawResponse()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: DatabaseHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  @Get('healthz')
  @ApiOperation({ summary: 'Liveness probe: the process answers' })
  @ApiOkResponse({
    description: 'The process is up',
    schema: {
      type: 'object',
      properties: { status: { type: 'string', enum: ['ok'] } },
      required: ['status'],
    },
    headers: UNTHROTTLED_HEADERS,
  })
  getLiveness(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({ summary: 'Readiness probe: the database (and Redis) answer' })
  @ApiOkResponse({
    description: 'Database (and Redis, when configured) reachable',
    schema: READINESS_SCHEMA,
    headers: UNTHROTTLED_HEADERS,
  })
  @ApiErrorResponse(503, 'internal_error: a dependency is unreachable', { rateLimited: false })
  async getReadiness(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.database.ping(PING_TIMEOUT_MS),
        ...(this.redis.configured ? [() => this.redis.ping(PING_TIMEOUT_MS)] : []),
      ]);
    } catch (error) {
      const failing =
        error instanceof HttpException
          ? Object.keys((error.getResponse() as HealthCheckResult).error ?? {})
          : ['unknown'];
      throw Errors.unavailable(`Not ready: ${failing.join(', ') || 'unknown'} unreachable`);
    }
  }
}
