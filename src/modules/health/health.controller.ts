import { Controller, Get, HttpException } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { SkipThrottle } from '@nestjs/throttler';
import { ApiHeadersTooLarge } from '@/common/http/api-docs.decorators';
import { Errors } from '@/common/http/api-error';
import { ErrorBodyDto } from '@/common/http/error-body.dto';
import { Public } from '@/common/http/public.decorator';
import { RawResponse } from '@/common/http/response-message.decorator';
import { RedisHealthIndicator } from './redis.health';

const PING_TIMEOUT_MS = 1500;

@ApiTags('health')
@ApiHeadersTooLarge()
@Public()
// Probes must answer whatever the state of Redis, which holds the rate-limit counters.
@SkipThrottle()
@RawResponse()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  @Get('healthz')
  @ApiOkResponse({ description: 'The process is up', schema: { example: { status: 'ok' } } })
  liveness(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOkResponse({ description: 'Database (and Redis, when configured) reachable' })
  @ApiServiceUnavailableResponse({ type: ErrorBodyDto, description: 'A dependency is unreachable' })
  async readiness(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.database.pingCheck('database', { timeout: PING_TIMEOUT_MS }),
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
