import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Principal } from '@/common/http/principal';
import { OpenToAgentLimitedKeys } from '@/modules/auth/agent-limit.decorator';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { UsageQueryDto, UsageRowDto } from './dto/usage.dto';
import { UsageService } from './usage.service';

@ApiTags('usage')
@Controller('usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @Endpoint({
    scope: 'settings:read',
    summary:
      "The team's model calls and tokens over a period, by day (TEAM_TIME_ZONE), agent or model " +
      '(a limited key: its agents)',
    message: 'Usage retrieved successfully',
    response: UsageRowDto,
    shape: 'array',
    errors: [400, 404],
  })
  @OpenToAgentLimitedKeys()
  getUsage(
    @CurrentPrincipal() caller: Principal,
    @Query() query: UsageQueryDto,
  ): Promise<UsageRowDto[]> {
    return this.usage.report(caller, query);
  }
}
