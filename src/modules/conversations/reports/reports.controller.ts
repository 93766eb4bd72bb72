import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Principal } from '@/common/http/principal';
import { OpenToAgentLimitedKeys } from '@/modules/auth/agent-limit.decorator';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { ConversationReports } from './conversation-reports.service';
import { ConversationReportDto, ConversationReportQueryDto } from './report.dto';

@ApiTags('reports')
@Controller('reports')
export class ReportsController {
  constructor(private readonly reports: ConversationReports) {}

  @Get('conversations')
  @Endpoint({
    scope: 'settings:read',
    summary:
      "The team's conversations over whole days (TEAM_TIME_ZONE): volumes, hand-offs, " +
      'resolutions and response times (a limited key: its agents)',
    message: 'Conversation report retrieved successfully',
    response: ConversationReportDto,
    errors: [400, 404],
  })
  @OpenToAgentLimitedKeys()
  conversationReport(
    @CurrentPrincipal() caller: Principal,
    @Query() query: ConversationReportQueryDto,
  ): Promise<ConversationReportDto> {
    return this.reports.report(caller, query);
  }
}
